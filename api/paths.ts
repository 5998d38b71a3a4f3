import type { ResourceName } from '../schemas/index.js';
import type { Schemas } from '../schemas/types/resources.js';
import type { OperationId, operationTable } from './operations.js';

/*
 * The API surface as types in openapi-typescript's convention (`paths`, `operations`, `components`), derived from the
 * operation table and the schemas' types: what openapi-fetch's `createClient<paths>()` and openapi-msw's
 * `createOpenApiHttp<paths>()` take, without running openapi-typescript. A test checks it against openapi-typescript's
 * output for `evalkit openapi`. Lower-case names are that convention's.
 */

type Table = typeof operationTable;

/** The methods openapi-typescript lists on every path item, `?: never` where the path has none. */
type PathMethod = 'get' | 'put' | 'post' | 'delete' | 'options' | 'head' | 'patch' | 'trace';

/** Flattens an intersection into one object type, as openapi-typescript writes it. */
type Flat<T> = { [K in keyof T]: T[K] };

/** A JSON response as openapi-typescript writes one. */
interface JsonResponse<Body> {
  headers: { [name: string]: unknown };
  content: { 'application/json': Body };
}

type ResponseBody<Id extends OperationId> = Table[Id]['response'] extends { resource: infer R extends ResourceName }
  ? Table[Id]['response']['array'] extends true
    ? Array<Schemas[R]>
    : Schemas[R]
  : never;

type PathParameters<Id extends OperationId> = Table[Id] extends { parameter: { name: infer P extends string } }
  ? { path: { [K in P]: string } }
  : { path?: never };

type RequestBody<Id extends OperationId> = Table[Id] extends { request: infer R extends ResourceName }
  ? { requestBody: { content: { 'application/json': Schemas[R] } } }
  : { requestBody?: never };

/** Each operation, by its operationId: parameters, request body, and the answers the document declares. */
export type operations = {
  [Id in OperationId]: Flat<
    {
      parameters: Flat<{ query?: never; header?: never; cookie?: never } & PathParameters<Id>>;
      responses: {
        200: JsonResponse<ResponseBody<Id>>;
        422: JsonResponse<Schemas['HTTPValidationError']>;
        default: JsonResponse<Schemas['HTTPError']>;
      };
    } & RequestBody<Id>
  >;
};

type OperationAt<Path extends string> = {
  [Id in OperationId]: Table[Id]['path'] extends Path ? Id : never;
}[OperationId];

/** Each path template with its operation under its method, openapi-typescript's `paths`. */
export type paths = {
  [Path in Table[OperationId]['path']]: Flat<
    { parameters: { query?: never; header?: never; path?: never; cookie?: never } } & {
      [
        M in PathMethod as M extends Lowercase<Table[OperationAt<Path>]['method']> ? M : never
      ]: operations[OperationAt<Path>];
    } & { [M in PathMethod as M extends Lowercase<Table[OperationAt<Path>]['method']> ? never : M]?: never }
  >;
};

/** The schemas as OpenAPI components, openapi-typescript's `components`. */
export interface components {
  schemas: Schemas;
}
