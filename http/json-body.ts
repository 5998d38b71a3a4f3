import { excerpt } from './excerpt.js';
import type { Exchange } from './exchange.js';

/**
 * How deep a body may nest before evalkit stops checking it. Python's json module (FastAPI's) cannot itself write
 * much deeper (its recursion limit is 1,000), and the validators and report writers recurse: past this depth a body
 * is reported, never walked.
 */
export const maxJsonDepth = 1000;

/** Pointer tokens shown for where a body nests too deep: the start of the path is what locates it. */
const shownTokens = 4;

interface Frame {
  value: object;
  depth: number;
  parent?: Frame;
  key?: string;
}

/** The first pointer tokens of a frame's path, read up its parents. */
function shownPath(frame: Frame): string {
  const tokens: string[] = [];
  for (let at: Frame | undefined = frame; at?.key !== undefined; at = at.parent) tokens.unshift(at.key);
  return `${
    tokens
      .slice(0, shownTokens)
      .map((token) => `/${token}`)
      .join('') || '/'
  }${tokens.length > shownTokens ? '/…' : ''}`;
}

/**
 * Where a parsed value nests deeper than maxJsonDepth, or undefined. Iterative, so any depth is safe; only objects
 * and arrays are stacked, each with a link to its parent, so a body of 300,000 numbers costs nothing extra.
 */
export function excessiveNesting(value: unknown): string | undefined {
  const stack: Frame[] = value !== null && typeof value === 'object' ? [{ value, depth: 0 }] : [];
  while (stack.length > 0) {
    const frame = stack.pop() as Frame;
    if (frame.depth >= maxJsonDepth)
      return `nested more than ${maxJsonDepth} levels deep (under ${shownPath(frame)}): not checked further`;
    const node = frame.value as Record<string, unknown>;
    for (const key of Array.isArray(node) ? node.keys() : Object.keys(node)) {
      const child = node[key as string];
      if (child !== null && typeof child === 'object')
        stack.push({ value: child, depth: frame.depth + 1, parent: frame, key: String(key) });
    }
  }
  return undefined;
}

/**
 * A body read as JSON the way RFC 8259 allows exchanging it: UTF-8 (§8.1; a byte order mark is tolerated here and
 * warned about by the caller), parseable, and shallow enough to check. Resolves to the value or the problem.
 */
export function readJsonBody(
  exchange: Pick<Exchange, 'body' | 'bodyBytes' | 'encoding'>,
): { data: unknown } | { problem: string } {
  if (exchange.encoding === 'invalid-utf8')
    return { problem: 'the body is not valid UTF-8 (JSON exchanged between systems must be, RFC 8259 §8.1)' };
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

/**
 * Items of one array validated: past this, a hostile body's hundreds of thousands of wrong items would cost
 * gigabytes.
 */
export const maxValidatedItems = 1000;

/**
 * The value with every array cut to its first maxValidatedItems items, and where that happened. Recursive: only
 * called on values readJsonBody accepted, which nest at most maxJsonDepth levels.
 */
export function validatedView(value: unknown, pointer = '', cuts: string[] = []): { view: unknown; cuts: string[] } {
  if (Array.isArray(value)) {
    if (value.length > maxValidatedItems) cuts.push(`${pointer || '/'} (${value.length} items)`);
    const view = value
      .slice(0, maxValidatedItems)
      .map((item, index) => validatedView(item, `${pointer}/${index}`, cuts).view);
    return { view, cuts };
  }
  if (value !== null && typeof value === 'object') {
    const view = Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key, validatedView(item, `${pointer}/${key}`, cuts).view]),
    );
    return { view, cuts };
  }
  return { view: value, cuts };
}
