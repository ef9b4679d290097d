// Base64 to bytes, for the wasm modules inlined in the default entry: the host's own
// decoder where it has one, else a plain loop (a bare `vm` context has neither `atob`
// nor `Buffer`).

const native = globalThis as {
  atob?: (text: string) => string;
};
const fromBase64 = (Uint8Array as unknown as { fromBase64?: (text: string) => Uint8Array }).fromBase64;

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

export function decodeBase64(text: string): Uint8Array {
  if (fromBase64 !== undefined) return fromBase64(text);
  const end = text.endsWith("==") ? text.length - 2 : text.endsWith("=") ? text.length - 1 : text.length;
  const bytes = new Uint8Array((end * 3) >> 2);
  if (native.atob !== undefined) {
    const binary = native.atob(text);
    for (let i = 0; i < bytes.length; i++) bytes[i] = binary.charCodeAt(i);
    return bytes;
  }
  const values = new Uint8Array(128);
  for (let i = 0; i < ALPHABET.length; i++) values[ALPHABET.charCodeAt(i)] = i;
  let at = 0;
  for (let i = 0; i < end; i += 4) {
    const word =
      (values[text.charCodeAt(i)]! << 18) |
      (values[text.charCodeAt(i + 1)]! << 12) |
      ((values[text.charCodeAt(i + 2)] ?? 0) << 6) |
      (values[text.charCodeAt(i + 3)] ?? 0);
    bytes[at++] = word >> 16;
    if (at < bytes.length) bytes[at++] = (word >> 8) & 0xff;
    if (at < bytes.length) bytes[at++] = word & 0xff;
  }
  return bytes;
}
