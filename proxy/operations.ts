import { operationByKey, operationTable, pathIdOf, type OperationKey } from '../api/operations.js';
import { recordedRoute } from '../http/traffic.js';

/** A request of one of the spec's operations, with its path parameters decoded. */
export interface Route {
  operation: OperationKey;
  params: Record<string, string>;
}

/** Which operation of the spec a request is, by its key (recordedRoute, the one method-and-path match). */
export function operationOf(method: string, path: string): Route | undefined {
  const route = recordedRoute({ method, path });
  return route && { operation: operationTable[route.operation].key, params: route.params };
}

/** The id of the one record a request asks for (its path parameter), if its operation names one. */
export function fetchedId(route: Route): string | undefined {
  return pathIdOf(operationByKey(route.operation), route.params);
}
