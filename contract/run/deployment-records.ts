import { operationTable, pathIdOf, type OperationDefinition, type OperationId } from '../../api/operations.js';
import { pathFor } from '../../api/match.js';
import { isJsonObject as isObject } from '../../schemas/json-object.js';

/**
 * The deployment's own records, by operation, when the run was given them: they stand in for the ids the mock made
 * up. An operation that takes a body gets a request valid there (its references exist: `--create-body`); one that
 * addresses a record gets an id the deployment holds (`--human-evaluation-id`). The type derives from the table, so a
 * new operation has its entry without a line here.
 */
export type DeploymentRecords = {
  [K in OperationId]?: (typeof operationTable)[K] extends { request: string } ? Record<string, unknown> : string;
};

/**
 * The fields of a create request that name records the deployment must hold: what a 404 `App not found` answers.
 * A domain fact of the spec's create (POST /evaluations): the rest of a body is the request's shape.
 */
const createReferences = ['app_id', 'testset_id', 'variant_ids', 'evaluators_configs'] as const;

/**
 * The recorded value with the deployment's ids in place of the recorded ones, keeping its type and count: a string
 * for a string, an array as long as the recorded one, its i-th string the deployment's i-th (round again when the
 * recording names more); any other entry or type kept, since it is the request's shape being checked.
 */
function withDeploymentIds(recorded: unknown, given: unknown): unknown {
  if (typeof recorded === 'string' && typeof given === 'string') return given;
  if (!Array.isArray(recorded) || !Array.isArray(given)) return recorded;
  const ids = given.filter((entry): entry is string => typeof entry === 'string');
  if (ids.length === 0) return recorded;
  return recorded.map((entry: unknown, index) => (typeof entry === 'string' ? ids[index % ids.length] : entry));
}

/** The create body with the deployment's references in place of the recorded ones, and the fields replaced. */
export function createWithDeploymentIds(
  body: Record<string, unknown>,
  given: Record<string, unknown>,
): { body: Record<string, unknown>; replaced: string[] } {
  const replaced: string[] = [];
  const next = { ...body };
  for (const field of createReferences) {
    if (!Object.hasOwn(body, field) || !Object.hasOwn(given, field)) continue;
    const value = withDeploymentIds(body[field], given[field]);
    if (JSON.stringify(value) === JSON.stringify(body[field])) continue;
    next[field] = value;
    replaced.push(field);
  }
  return { body: next, replaced };
}

/** A recorded request, and the same request with the deployment's ids where the run knows them. */
interface Substituted {
  path: string;
  params: Record<string, string>;
  body: unknown;
  replaced: string[];
}

/** Which of the deployment's records an operation's recorded request takes in place of the mock's. */
export type Substitution = (
  operation: OperationId,
  params: Record<string, string>,
  body: unknown,
  ids: DeploymentRecords,
) => Substituted;

/**
 * The request as recorded. The path is built again from the operation and its parameters, never sent as recorded: a
 * recorded `\\` or an encoded dot would be read by the URL as a step along the path, out of the operation's.
 */
const asRecorded: Substitution = (operation, params, body) => ({
  path: pathFor(operation, params),
  params,
  body,
  replaced: [],
});

/** The operation's path id replaced by the id the deployment holds for it (`--human-evaluation-id`), when given. */
export const heldIdInPath: Substitution = (operation, params, body, ids) => {
  const definition: OperationDefinition = operationTable[operation];
  const held = ids[operation];
  if (!definition.parameter || typeof held !== 'string') return asRecorded(operation, params, body, ids);
  if (pathIdOf(definition, params) === held) return asRecorded(operation, params, body, ids);
  const given = { ...params, [definition.parameter.name]: held };
  const replaced = [`the fetched id (${definition.parameter.name})`];
  return { path: pathFor(operation, given), params: given, body, replaced };
};

/** The create body's references replaced by the valid body's the deployment holds (`--create-body`), when given. */
export const heldReferencesInBody: Substitution = (operation, params, body, ids) => {
  const valid = ids[operation];
  if (!isObject(valid) || !isObject(body)) return asRecorded(operation, params, body, ids);
  return { path: pathFor(operation, params), params, ...createWithDeploymentIds(body, valid) };
};
