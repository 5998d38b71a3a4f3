import { excerpt } from './excerpt.js';
import type { Exchange } from './http-client.js';

/**
 * How deep a body may nest before evalkit stops checking it. Python's json module (FastAPI's) cannot itself write
 * much deeper (its recursion limit is 1,000), and the validators and report writers recurse: past this depth a body
 * is reported, never walked.
 */
export const maxJsonDepth = 1000;

/** Pointer tokens shown for where a body nests too deep: the start of the path is what locates it. */
const shownTokens = 4;

/** Where a parsed value nests deeper than maxJsonDepth, found without recursion (any depth is safe), or undefined. */
export function excessiveNesting(value: unknown): string | undefined {
  const stack: Array<{ value: unknown; depth: number; path: string[] }> = [{ value, depth: 0, path: [] }];
  while (stack.length > 0) {
    const { value: node, depth, path } = stack.pop() as (typeof stack)[number];
    if (node === null || typeof node !== 'object') continue;
    if (depth >= maxJsonDepth) {
      const shown = path.slice(0, shownTokens).map((token) => `/${token}`).join('');
      return `nested more than ${maxJsonDepth} levels deep (under ${shown || '/'}${path.length > shownTokens ? '/…' : ''}): not checked further`;
    }
    for (const [key, child] of Object.entries(node)) {
      stack.push({ value: child, depth: depth + 1, path: path.length < shownTokens ? [...path, key] : path });
    }
  }
  return undefined;
}

/**
 * A body read as JSON the way RFC 8259 allows exchanging it: UTF-8 (§8.1; a byte order mark is tolerated here and
 * warned about by the caller), parseable, and shallow enough to check. Resolves to the value or the problem.
 */
export function readJsonBody(exchange: Pick<Exchange, 'body' | 'bodyBytes' | 'encoding'>): { data: unknown } | { problem: string } {
  if (exchange.encoding === 'invalid-utf8') return { problem: 'the body is not valid UTF-8 (JSON exchanged between systems must be, RFC 8259 §8.1)' };
  const text = exchange.encoding === 'bom' ? exchange.body.slice(1) : exchange.body;
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return { problem: `the body is not JSON (starts ${excerpt(text.trimStart().slice(0, 40).replace(/\s+/g, ' '))})` };
  }
  const nesting = excessiveNesting(data);
  return nesting ? { problem: `the body is ${nesting}` } : { data };
}
