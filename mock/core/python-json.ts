/**
 * Where and why Python's `json` module (CPython 3.11's scanner, which the real service's FastAPI calls through
 * Starlette's `request.json()`) refuses a text: the message and the position FastAPI puts in its `json_invalid` entry
 * (`loc: ["body", position]`, `ctx.error`). Positions count code points, as Python's strings do. Read only after
 * JSON.parse refused the text, so a valid body costs nothing here; iterative, so no input can exhaust the stack.
 */
export interface PythonJsonError {
  msg: string;
  /** In code points from the start of the text. */
  pos: number;
}

const whitespace = new Set([' ', '\t', '\n', '\r']);
const escapes = new Set(['"', '\\', '/', 'b', 'f', 'n', 'r', 't']);
const hex = /^[0-9a-fA-F]{4}$/;
const literals = ['null', 'true', 'false', 'NaN', 'Infinity', '-Infinity'];

class Refusal {
  constructor(
    readonly msg: string,
    readonly at: number,
  ) {}
}

function skipWhitespace(text: string, at: number): number {
  while (at < text.length && whitespace.has(text[at] as string)) at++;
  return at;
}

/** The end of the string whose opening quote is at `quote` (CPython's scanstring, strict). */
function stringEnd(text: string, quote: number): number {
  let at = quote + 1;
  for (;;) {
    while (at < text.length && text[at] !== '"' && text[at] !== '\\' && text.charCodeAt(at) > 0x1f) at++;
    if (at >= text.length) throw new Refusal('Unterminated string starting at', quote);
    if (text[at] === '"') return at + 1;
    if (text[at] !== '\\') throw new Refusal('Invalid control character at', at);
    at++;
    if (at >= text.length) throw new Refusal('Unterminated string starting at', quote);
    const escape = text[at] as string;
    if (escape !== 'u') {
      if (!escapes.has(escape)) throw new Refusal('Invalid \\escape', at - 1);
      at++;
      continue;
    }
    // `\u` then four hex digits, refused at the `u`; CPython's check (`end >= len`) also wants a character after them.
    if (at + 5 >= text.length || !hex.test(text.slice(at + 1, at + 5))) throw new Refusal('Invalid \\uXXXX escape', at);
    at += 5;
  }
}

/** The end of the number at `start`, or a refusal where no value starts (CPython's _match_number). */
function numberEnd(text: string, start: number): number {
  const digit = (at: number) => at < text.length && text[at]! >= '0' && text[at]! <= '9';
  let at = start;
  if (text[at] === '-') at++;
  if (text[at] === '0') at++;
  else if (digit(at) && text[at] !== '0') while (digit(at)) at++;
  else throw new Refusal('Expecting value', start);
  if (text[at] === '.' && digit(at + 1)) {
    at += 2;
    while (digit(at)) at++;
  }
  if (text[at] === 'e' || text[at] === 'E') {
    let exponent = at + 1;
    if (text[exponent] === '-' || text[exponent] === '+') exponent++;
    const digits = exponent;
    while (digit(exponent)) exponent++;
    if (exponent > digits) at = exponent;
  }
  return at;
}

/** What a container expects next: a value, a key, the delimiter after a key, or the one after a value. */
type Expecting = 'value' | 'key' | 'colon' | 'after-value';

/** The first refusal of `text` by Python's json.loads, or undefined when Python reads it (NaN, say). */
function firstRefusal(text: string): Refusal | undefined {
  const open: Array<'{' | '['> = [];
  let at = skipWhitespace(text, 0);
  let expecting: Expecting = 'value';
  for (;;) {
    if (expecting === 'value') {
      const char = text[at];
      if (char === '{' || char === '[') {
        open.push(char);
        at = skipWhitespace(text, at + 1);
        const closer = char === '{' ? '}' : ']';
        if (text[at] === closer) {
          open.pop();
          at++;
          expecting = 'after-value';
        } else expecting = char === '{' ? 'key' : 'value';
        continue;
      }
      if (at >= text.length) return new Refusal('Expecting value', at);
      if (char === '"') at = stringEnd(text, at);
      else {
        const literal = literals.find((word) => text.startsWith(word, at));
        at = literal ? at + literal.length : numberEnd(text, at);
      }
      expecting = 'after-value';
      continue;
    }
    if (expecting === 'key') {
      if (text[at] !== '"') return new Refusal('Expecting property name enclosed in double quotes', at);
      at = skipWhitespace(text, stringEnd(text, at));
      expecting = 'colon';
      continue;
    }
    if (expecting === 'colon') {
      if (text[at] !== ':') return new Refusal("Expecting ':' delimiter", at);
      at = skipWhitespace(text, at + 1);
      expecting = 'value';
      continue;
    }
    // After a value: the end of the text, or its container's comma or closer.
    at = skipWhitespace(text, at);
    const container = open[open.length - 1];
    if (container === undefined) return at === text.length ? undefined : new Refusal('Extra data', at);
    if (text[at] === (container === '{' ? '}' : ']')) {
      open.pop();
      at++;
      continue;
    }
    if (text[at] !== ',') return new Refusal("Expecting ',' delimiter", at);
    at = skipWhitespace(text, at + 1);
    expecting = container === '{' ? 'key' : 'value';
  }
}

/** Code points in the first `units` UTF-16 units of a text. */
function codePoints(text: string, units: number): number {
  let count = 0;
  for (let at = 0; at < units; at++) {
    const code = text.charCodeAt(at);
    // The high half of a pair counts; its low half does not.
    if (!(code >= 0xdc00 && code <= 0xdfff && at > 0 && (text.charCodeAt(at - 1) & 0xfc00) === 0xd800)) count++;
  }
  return count;
}

/** Why Python's json.loads refuses `text`, and where; undefined when it reads it. */
export function pythonJsonError(text: string): PythonJsonError | undefined {
  try {
    const refusal = firstRefusal(text);
    return refusal && { msg: refusal.msg, pos: codePoints(text, refusal.at) };
  } catch (error) {
    if (!(error instanceof Refusal)) throw error;
    return { msg: error.msg, pos: codePoints(text, error.at) };
  }
}
