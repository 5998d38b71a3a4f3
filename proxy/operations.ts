import { matchPath } from '../api/match.js';
import { operationTable, type OperationKey } from '../api/operations.js';

/** A request of one of the spec's operations, with its path parameters decoded. */
export interface Route {
  operation: OperationKey;
  params: Record<string, string>;
}

/**
 * Which operation of the spec a request is, by method and path relative to the base path (read as the mock reads it,
 * api/match.ts); undefined for any other method or path, or a parameter that is not percent-encoded UTF-8.
 */
export function operationOf(method: string, path: string): Route | undefined {
  const match = matchPath(path);
  if (match.kind !== 'operation') return undefined;
  const { key, method: expected } = operationTable[match.operation];
  return method === expected ? { operation: key, params: match.params } : undefined;
}

/** The id a fetch asks for. */
export function fetchedId(route: Route): string | undefined {
  return route.params[operationTable.fetchHumanEvaluation.parameter.name];
}
