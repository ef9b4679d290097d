// UTF-8 for hosts without TextEncoder/TextDecoder (a bare `vm` context, some embedded
// runtimes): the native classes where they exist, otherwise small JS ones with the
// methods planloop and wasm-bindgen's glue call. The build points every use of the two
// global names at this module (esbuild `inject`), so the glue runs there too.

interface Encoder {
  encode(text?: string): Uint8Array;
  encodeInto(text: string, into: Uint8Array): { read: number; written: number };
}
interface Decoder {
  decode(bytes?: Uint8Array): string;
}

/** Writes `text` as UTF-8 into `into` while it fits (lone surrogates become U+FFFD, as
 * the native encoder does). */
function encodeInto(text: string, into: Uint8Array): { read: number; written: number } {
  let written = 0;
  let read = 0;
  while (read < text.length) {
    let code = text.charCodeAt(read);
    let units = 1;
    if (code >= 0xd800 && code <= 0xdfff) {
      const next = text.charCodeAt(read + 1);
      if (code <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
        code = 0x10000 + ((code - 0xd800) << 10) + (next - 0xdc00);
        units = 2;
      } else {
        code = 0xfffd;
      }
    }
    const size = code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
    if (written + size > into.length) break;
    if (size === 1) {
      into[written] = code;
    } else {
      let shift = 6 * (size - 1);
      into[written] = ((0xf00 >> size) & 0xff) | (code >> shift);
      for (let i = 1; i < size; i++) {
        shift -= 6;
        into[written + i] = 0x80 | ((code >> shift) & 0x3f);
      }
    }
    written += size;
    read += units;
  }
  return { read, written };
}

/** Reads UTF-8 (an invalid sequence becomes one U+FFFD per byte, never an exception). */
function decode(bytes: Uint8Array = new Uint8Array(0)): string {
  let out = "";
  let i = 0;
  while (i < bytes.length) {
    const lead = bytes[i]!;
    const size = lead < 0x80 ? 1 : lead < 0xc2 ? 0 : lead < 0xe0 ? 2 : lead < 0xf0 ? 3 : lead < 0xf5 ? 4 : 0;
    let code = size === 1 ? lead : size === 0 ? -1 : lead & (0xff >> (size + 1));
    for (let k = 1; k < size && code >= 0; k++) {
      const byte = bytes[i + k];
      code = byte !== undefined && (byte & 0xc0) === 0x80 ? (code << 6) | (byte & 0x3f) : -1;
    }
    const shortest = size < 2 || code >= [0, 0, 0x80, 0x800, 0x10000][size]!;
    if (code < 0 || !shortest || (code >= 0xd800 && code <= 0xdfff) || code > 0x10ffff) {
      out += "\ufffd";
      i += 1;
    } else {
      out += String.fromCodePoint(code);
      i += size;
    }
  }
  return out;
}

class FallbackEncoder implements Encoder {
  encode(text = ""): Uint8Array {
    const into = new Uint8Array(text.length * 3);
    return into.slice(0, encodeInto(text, into).written);
  }
  encodeInto(text: string, into: Uint8Array): { read: number; written: number } {
    return encodeInto(text, into);
  }
}

class FallbackDecoder implements Decoder {
  decode(bytes?: Uint8Array): string {
    return decode(bytes);
  }
}

const native = globalThis as { TextEncoder?: new () => Encoder; TextDecoder?: new (label?: string, options?: object) => Decoder };

const Encoder: new () => Encoder = native.TextEncoder ?? FallbackEncoder;
const Decoder: new (label?: string, options?: object) => Decoder = native.TextDecoder ?? FallbackDecoder;

export { Decoder as TextDecoder, Encoder as TextEncoder };
