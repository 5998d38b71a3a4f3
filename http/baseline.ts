import { counted } from './counted.js';

/**
 * What became of an `--ignore` file's ids (contract, proxy and diff alike): those this run found, accepted, and those
 * it did not, which can leave the file. Stale ids fail nothing: a baseline only shrinks by hand.
 */
export interface Baseline {
  accepted: string[];
  stale: string[];
}

/** The ids an --ignore file gave, split into those among the run's `found` and the rest. */
export function baselineOf(given: ReadonlySet<string>, found: Iterable<string>): Baseline {
  const seen = new Set(found);
  return { accepted: [...given].filter((id) => seen.has(id)), stale: [...given].filter((id) => !seen.has(id)) };
}

/** Ids in a line, the first `listed` of them and how many more. */
export function shownIds(ids: readonly string[], listed = 20): string {
  return ids.length > listed ? `${ids.slice(0, listed).join(', ')} and ${ids.length - listed} more` : ids.join(', ');
}

/** The --ignore file's ids in a line: how many were found and accepted, and which are stale. */
export function baselineText({ accepted, stale }: Baseline): string {
  const found = `--ignore: ${counted(accepted.length, 'accepted id')} found`;
  if (stale.length === 0) return `${found}, none stale`;
  return `${found}; ${counted(stale.length, 'stale id')}, found no more (remove from the file): ${shownIds(stale)}`;
}
