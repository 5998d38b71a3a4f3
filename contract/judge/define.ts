import type { OperationKey } from '../../api/operations.js';
import type { Received } from '../../http/exchange.js';
import type { Observation } from './observation.js';

export type Severity = 'error' | 'warning';

/**
 * What a check makes of one exchange: undefined when it does not apply, else its findings (none: it passed), or a
 * reason it cannot be judged (it is skipped, saying why, unless another exchange judges it).
 */
export type Judged = ReadonlyArray<Finding | SharedFinding> | { skip: string } | undefined;

/**
 * What a finding's id is hashed from besides its operation and check (finding-id.ts): the cause, in words that do not
 * vary by run, seed or command (`/created_at format date-time`, `500`), never a value received or sent, a request's
 * path, a count or an excerpt. Two findings of one check with one cause have one id, and an `--ignore` file lists it.
 */
export type Cause = readonly string[];

/** One finding: what the report says, and its cause. */
export interface Finding {
  text: string;
  cause: Cause;
}

/**
 * A finding whose answer many requests may share (the same answer to each: one nginx 500 page to every invalid body):
 * the report shows the answer once, and lists the requests that got it.
 */
export interface SharedFinding {
  /** The request, as a finding names it: `POST /evaluations (probe: …)`. */
  subject: string;
  /** What it got, the same words for every request that got the same: `answered 500 (a server error): "…"`. */
  answer: string;
  /** Never finer than `answer`: every request listed under one answer has one id. */
  cause: Cause;
}

/** A finding of these words and this cause. */
export function finding(text: string, ...cause: string[]): Finding {
  return { text, cause };
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
  property?(exchange: Received): Finding | undefined;
  /** With `property`: how to fix a counterexample, the same for every case (its body and curl show the case). */
  propertyHint?: string;
}

/** One check, its id kept as a literal type so the catalogue's ids form a union. */
export function defineCheck<const Id extends string>(definition: CheckDefinition<Id>): CheckDefinition<Id> {
  return definition;
}

/** Findings of a check evaluated once per item: undefined when there is no item, so nothing was evaluated. */
export function perItem<T>(items: readonly T[], findingOf: (item: T) => Finding | undefined): Judged {
  if (items.length === 0) return undefined;
  return items.map(findingOf).filter((found): found is Finding => found !== undefined);
}

/** One evaluation: passed when `found` is undefined. */
export function once(found: Finding | undefined): Judged {
  return found === undefined ? [] : [found];
}
