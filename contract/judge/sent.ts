import type { OperationId, OperationKey, operationTable } from '../../api/operations.js';
import type { Cause } from './define.js';

/** A request as the contract sends it, or as the proxy saw a client send it. */
export interface Outgoing {
  /** An operation's method (api/operations.ts). */
  method: (typeof operationTable)[OperationId]['method'];
  /** Relative to the base URL, e.g. the create operation's path. */
  path: string;
  /** A query the app sent, without its `?` (a replayed request's); the suite's own requests have none. */
  query?: string;
  body?: string;
  contentType?: string;
  /** What the request is, when its path does not say: `an unknown UUID`. */
  what?: string;
  /** Headers of the request's own, for its reproduction (a proxy's client's); credentials as placeholders. */
  headers?: Readonly<Record<string, string>>;
  /** Where its body was taken from (a recording's line), for a reproduction too long to carry the body itself. */
  bodyFrom?: string;
}

/**
 * Where a request's ids came from when nobody vouched they exist there, and what to pass instead: a 4xx is no
 * finding.
 */
export interface Unvouched {
  what: string;
  remedy: string;
}

/**
 * What a request was for, which decides the checks its answer gets beyond the ones every answer gets.
 * - `expected`: it should succeed (the given id, the valid create request, a proxied request); `id` is the id asked
 *   for, `request` the create request the answer must match, `unvouched` set when a 4xx is no finding.
 * - `unknown-id`: an id that cannot exist. `invalid`: a create request that must be refused; `accepted` words a 2xx,
 *   `cause` says why it is invalid as both commands say it (invalidRequestCause).
 * - `key-names`: the accepted create request with other lm_providers_keys names; `alone` for one name, after a refusal.
 * - `repeat`: a request whose answer only gets the checks every answer gets.
 * - `property`: a property case, judged by its property (shrunk by the run); only echoes are judged per answer;
 *   `request`: a valid case's body, which the run's coverage reads.
 */
export type Role =
  | { kind: 'expected'; id?: string; request?: Record<string, unknown>; unvouched?: Unvouched }
  | { kind: 'unknown-id'; shape: string }
  | { kind: 'invalid'; accepted(status: number): string; cause: Cause }
  | { kind: 'key-names'; alone?: { name: string; used: readonly string[] } }
  | { kind: 'repeat' }
  | { kind: 'property'; request?: Record<string, unknown> };

/** One request and what it was for. */
export interface Sent {
  operation: OperationKey;
  outgoing: Outgoing;
  role: Role;
}

/** How the report names an exchange: `POST /evaluations`; never headers, never a body. */
export function labelOf(outgoing: Outgoing): string {
  const query = outgoing.query ? `?${outgoing.query}` : '';
  return `${outgoing.method} ${outgoing.path}${query}${outgoing.what ? ` (${outgoing.what})` : ''}`;
}
