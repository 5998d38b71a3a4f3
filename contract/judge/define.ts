import type { OperationKey } from '../../api/operations.js';
import type { Received } from '../../http/exchange.js';
import type { Observation } from './observation.js';

export type Severity = 'error' | 'warning';

/**
 * What a check makes of one exchange: undefined when it does not apply, else its findings (none: it passed), or a
 * reason it cannot be judged (it is skipped, saying why, unless another exchange judges it).
 */
export type Judged = ReadonlyArray<string | SharedFinding> | { skip: string } | undefined;

/**
 * A finding whose cause many requests may share (the same answer to each: one nginx 500 page to every invalid body):
 * the report shows the cause once, and lists the requests that got it.
 */
export interface SharedFinding {
  /** The request, as a finding names it: `POST /evaluations (probe: …)`. */
  subject: string;
  /** What it got, the same words for every request that got the same: `answered 500 (a server error): "…"`. */
  cause: string;
}

/**
 * A check: what must hold, how bad it is when it does not, the line of the spec that makes it so, and its code.
 * `code` judges one exchange; a property check's `property` judges one case's answer instead (the run shrinks its
 * failures, so its findings are recorded by the run); a check with neither is judged by the run across exchanges.
 */
export interface CheckDefinition<Id extends string = string> {
  id: Id;
  operation: OperationKey;
  severity: Severity;
  /** What passing means, in one sentence. */
  title: string;
  /** The spec line the check enforces, and where the spec is silent, the rule evalkit holds to. */
  spec: string;
  code?(seen: Observation): Judged;
  /** How to fix what `code` found in this exchange, in one sentence, where the finding alone does not say. */
  hint?(seen: Observation): string | undefined;
  property?(exchange: Received): string | undefined;
  /** With `property`: how to fix a counterexample, the same for every case (its body and curl show the case). */
  propertyHint?: string;
}

/** One check, its id kept as a literal type so the catalogue's ids form a union. */
export function defineCheck<const Id extends string>(definition: CheckDefinition<Id>): CheckDefinition<Id> {
  return definition;
}

/** Findings of a check evaluated once per item: undefined when there is no item, so nothing was evaluated. */
export function perItem<T>(items: readonly T[], finding: (item: T) => string | undefined): Judged {
  if (items.length === 0) return undefined;
  return items.map(finding).filter((found): found is string => found !== undefined);
}

/** One evaluation: passed when `finding` is undefined. */
export function once(finding: string | undefined): Judged {
  return finding === undefined ? [] : [finding];
}
