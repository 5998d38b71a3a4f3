import { excerpt } from './excerpt.js';
import type { Exchange } from './exchange.js';
import { pathOf, walkJson, type JsonKey } from './json-walk.js';

/**
 * How deep a body may nest before evalkit stops checking it. Python's json module (FastAPI's) cannot itself write
 * much deeper (its recursion limit is 1,000), and the validators and report writers recurse: past this depth a body
 * is reported, never walked.
 */
export const maxJsonDepth = 1000;

/** Pointer tokens shown for where a body nests too deep: the start of the path is what locates it. */
const shownTokens = 4;

/**
 * Pointer tokens kept of the path to a value nested too deep: enough to reach the open position it sits in (the
 * schemas declare nothing this deep), never the whole path.
 */
const keptTokens = 16;

/** Where a value nests deeper than maxJsonDepth: the start of its path, and how deep it goes. */
export interface DeepNesting {
  /** The first pointer tokens (at most 16) of the path to the value found at maxJsonDepth. */
  tokens: readonly string[];
  /** The deepest level of nesting found under it (the outermost value counts as level 1). */
  levels: number;
}

/** `nested more than 1000 levels deep (under /a/b/c/d/…)`: where a place is, by the start of its path. */
export function describeNesting(place: DeepNesting): string {
  const path = place.tokens
    .slice(0, shownTokens)
    .map((token) => `/${token}`)
    .join('');
  const more = place.tokens.length > shownTokens ? '/…' : '';
  return `nested more than ${maxJsonDepth} levels deep (under ${path || '/'}${more})`;
}

/**
 * Every place where a parsed value nests deeper than maxJsonDepth, with how deep it goes. With `cut`, each value found
 * at maxJsonDepth is replaced in its parent by a string saying so, so what is left nests at most maxJsonDepth levels
 * and any recursive walker may read it. Walked in document order without recursion (http/json-walk.ts), so any depth
 * is safe. Values found at maxJsonDepth under the same container at depth keptTokens share one place.
 */
function deepNesting(value: unknown, cut: boolean): DeepNesting[] {
  const places = new Map<object, DeepNesting>();
  // In document order a container's members come right after it: the last container met at depth keptTokens holds
  // each deeper value that follows, and the last place opened holds each value under maxJsonDepth that follows.
  let anchor: object | undefined;
  let place: DeepNesting | undefined;
  walkJson(value, (child, key, holder, depth) => {
    if (child === null || typeof child !== 'object') return;
    if (depth === keptTokens) anchor = child;
    if (depth === maxJsonDepth && holder) {
      const at = anchor as object;
      place = places.get(at) ?? { tokens: pathOf(holder, key).slice(0, keptTokens), levels: 0 };
      places.set(at, place);
      if (cut) (holder.value as Record<JsonKey, unknown>)[key as JsonKey] = 'nested too deep: not checked';
    }
    if (place && depth >= maxJsonDepth) place.levels = Math.max(place.levels, depth + 1);
  });
  return [...places.values()];
}

/** Where a parsed value nests deeper than maxJsonDepth, in words, or undefined. The value is left as it is. */
export function excessiveNesting(value: unknown): string | undefined {
  const [first] = deepNesting(value, false);
  return first && `${describeNesting(first)}: not checked further`;
}

/** Why a body is no JSON to read, in words with an excerpt (`problem`) and as a kind that never quotes it. */
export interface JsonProblem {
  problem: string;
  kind: 'not UTF-8' | 'not JSON' | 'nested too deep';
}

/**
 * A body read as JSON the way RFC 8259 allows exchanging it: UTF-8 (§8.1; a byte order mark is tolerated here and
 * warned about by the caller) and parseable. Resolves to the value, cut where it nests deeper than maxJsonDepth, with
 * the places cut (whether a place may nest that deep is for the schema to say), or to the problem.
 */
export function readJsonBody(
  exchange: Pick<Exchange, 'body' | 'bodyBytes' | 'encoding'>,
): { data: unknown; deep: DeepNesting[] } | JsonProblem {
  if (exchange.encoding === 'invalid-utf8')
    return {
      problem: 'the body is not valid UTF-8 (JSON exchanged between systems must be, RFC 8259 §8.1)',
      kind: 'not UTF-8',
    };
  const text = exchange.encoding === 'bom' ? exchange.body.slice(1) : exchange.body;
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    const start = excerpt(text.trimStart().slice(0, 40).replace(/\s+/g, ' '));
    return { problem: `the body is not JSON (starts ${start})`, kind: 'not JSON' };
  }
  return { data, deep: deepNesting(data, true) };
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
