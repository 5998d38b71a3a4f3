import type { OperationKey } from '../../api/operations.js';
import type { ResourceName } from '../../schemas/index.js';
import { validate, type ValidationIssue } from '../../schemas/validators/index.js';
import { stableId } from '../../http/stable-id.js';
import { fieldPattern } from './schema-walk.js';

/**
 * The stable id of a finding: a hash of its operation, its check and its cause (`Finding.cause`), the same hash as a
 * `--compare-mock` difference's and a `diff` change's (http/stable-id.ts). The cause never holds what varies by run,
 * seed or command (excerpts, generated values, request paths and ids, counts, timings, the base URL), so `contract`
 * and `proxy` give one cause one id, and an `--ignore` file accepts it in both.
 */
export function findingId(operation: OperationKey, check: string, cause: readonly string[]): string {
  return stableId([operation, check, ...cause]);
}

/** A JSON pointer with its array indices as `*`: the tenth record's field is the first record's. */
export function anyIndex(pointer: string): string {
  return pointer.replace(/\/\d+(?=\/|$)/g, '/*');
}

/**
 * Validation issues of a resource as a cause: which field (fieldPattern: indices and map keys as `*`) breaks which
 * rule, once each, in one order, never the value received. A record with the same rules broken in more items has the
 * same cause.
 */
export function issuesCause(resource: ResourceName, issues: readonly ValidationIssue[]): string[] {
  const rules = issues.map(
    ({ pointer, keyword, format }) => `${fieldPattern(resource, pointer)} ${keyword}${format ? ` ${format}` : ''}`,
  );
  return [...new Set(rules)].sort();
}

/**
 * Why a request is invalid, as a cause both commands read alike: the contract's probe and a client's request through
 * the proxy that break the same rule have the same cause. `body`: the parsed request, `unreadable` when it is no JSON
 * a server could read, undefined when there is none.
 */
export function invalidRequestCause(
  jsonContentType: boolean,
  body: { request: unknown } | 'unreadable' | undefined,
  resource: ResourceName,
): string[] {
  if (!jsonContentType) return ['not a JSON Content-Type'];
  if (body === undefined) return ['no body'];
  if (body === 'unreadable') return ['not JSON'];
  return issuesCause(resource, validate(resource, body.request).issues);
}
