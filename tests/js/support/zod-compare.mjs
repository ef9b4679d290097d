// Comparing planloop's answers with zod's: zod's answer for raw JSON text (JSON.parse
// first, as a host would), and equality that includes key order.
import assert from "node:assert/strict";

import { writeTodosSchema, zodAnswer } from "./seed-schema.mjs";

/** zod's answer for raw JSON text: JSON.parse first, as a host would. */
export function expectedForText(text) {
  let value;
  try {
    value = JSON.parse(text);
  } catch {
    return null; // planloop answers with one invalid_json issue
  }
  return zodAnswer(writeTodosSchema, value);
}

export function same(actual, expected) {
  // Strict deep equality, plus key order (JSON.stringify) for a drop-in replacement.
  return JSON.stringify(actual) === JSON.stringify(expected) && isDeep(actual, expected);
}

function isDeep(a, b) {
  try {
    assert.deepStrictEqual(a, b);
    return true;
  } catch {
    return false;
  }
}

export const NOT_JSON = Symbol("not JSON");

export function safeParse(text) {
  try {
    return JSON.parse(text);
  } catch {
    return NOT_JSON;
  }
}
