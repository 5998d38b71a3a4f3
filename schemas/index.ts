import aggregatedResult from './aggregated-result.json' with { type: 'json' };
import createEvaluationRequest from './create-evaluation-request.json' with { type: 'json' };
import error from './error.json' with { type: 'json' };
import evaluation from './evaluation.json' with { type: 'json' };
import evaluatorConfig from './evaluator-config.json' with { type: 'json' };
import httpError from './http-error.json' with { type: 'json' };
import httpValidationError from './http-validation-error.json' with { type: 'json' };
import humanEvaluation from './human-evaluation.json' with { type: 'json' };
import rateLimit from './rate-limit.json' with { type: 'json' };
import result from './result.json' with { type: 'json' };
import undocumentedEvaluatorConfig from './undocumented-evaluator-config.json' with { type: 'json' };

/** A JSON Schema document as read from schemas/; kept loose because schemas are data, not code. */
export type JsonSchema = { [keyword: string]: unknown };

/**
 * The resources of the spec, by their schema documents, imported as JSON modules: no file is read at run time, so a
 * browser bundle carries them inline. This is the one list of schemas: everything else (validators, OpenAPI, types,
 * generators, fixtures) iterates it.
 */
const documents = {
  HumanEvaluation: humanEvaluation,
  Evaluation: evaluation,
  Result: result,
  Error: error,
  AggregatedResult: aggregatedResult,
  EvaluatorConfig: evaluatorConfig,
  UndocumentedEvaluatorConfig: undocumentedEvaluatorConfig,
  CreateEvaluationRequest: createEvaluationRequest,
  RateLimit: rateLimit,
} as const;

export type ResourceName = keyof typeof documents;

export const resourceNames = Object.keys(documents) as ResourceName[];

export function isResourceName(name: string): name is ResourceName {
  return Object.hasOwn(documents, name);
}

export const schemas: Readonly<Record<ResourceName, JsonSchema>> = Object.freeze(documents);

/**
 * Each resource's schema file name, the last segment of its `$id` (`human-evaluation.json`): how schemas `$ref` each
 * other.
 */
export const schemaFiles = Object.freeze(
  Object.fromEntries(resourceNames.map((name) => [name, schemaId(name).slice(schemaId(name).lastIndexOf('/') + 1)])),
) as Readonly<Record<ResourceName, string>>;

/**
 * The error bodies the mock sends and the OpenAPI document declares, in FastAPI's shapes (docs/decisions.md, #3).
 * The spec shows no error body, so these are not resources: no generator, fixture or contract check uses them.
 */
const errorBodyDocuments = {
  HTTPValidationError: httpValidationError,
  HTTPError: httpError,
} as const;

export type ErrorBodyName = keyof typeof errorBodyDocuments;

export const errorBodyNames = Object.keys(errorBodyDocuments) as ErrorBodyName[];

export const errorBodySchemas: Readonly<Record<ErrorBodyName, JsonSchema>> = Object.freeze(errorBodyDocuments);

/** Every schema in schemas/: the resources, then the error bodies. */
export type SchemaName = ResourceName | ErrorBodyName;

export const schemaNames: readonly SchemaName[] = [...resourceNames, ...errorBodyNames];

export function schemaFor(name: SchemaName): JsonSchema {
  return isResourceName(name) ? schemas[name] : errorBodySchemas[name];
}

export function schemaId(name: SchemaName): string {
  return schemaFor(name).$id as string;
}

/** Property names a resource's schema declares, in schema order. */
export function declaredProperties(name: ResourceName): string[] {
  return Object.keys((schemas[name].properties as Record<string, unknown> | undefined) ?? {});
}

/** Property names a resource's schema marks required. */
export function requiredProperties(name: ResourceName): string[] {
  return [...((schemas[name].required as string[] | undefined) ?? [])];
}

const resourceByFile = new Map<string, ResourceName>(resourceNames.map((name) => [schemaFiles[name], name]));

/** The resource a `$ref` between schema files names (`"error.json"` -> `Error`). */
export function resourceForRef(ref: string): ResourceName {
  const name = resourceByFile.get(ref);
  if (!name) throw new Error(`unresolved $ref ${ref}: schemas refer to each other by file name`);
  return name;
}

/** The schema a subschema stands for: the referenced resource's schema for a `$ref`, itself otherwise. */
export function dereference(schema: JsonSchema): JsonSchema {
  return typeof schema.$ref === 'string' ? schemas[resourceForRef(schema.$ref)] : schema;
}

/**
 * A copy of a schema for embedding in another document: `$id` and `$schema` dropped (the host document sets them)
 * and every file `$ref` rewritten by `refTo` (to `#/components/schemas/X` in OpenAPI, `#/$defs/X` in a bundle).
 */
export function embedSchema(node: unknown, refTo: (name: ResourceName) => string): unknown {
  if (Array.isArray(node)) return node.map((item) => embedSchema(item, refTo));
  if (!node || typeof node !== 'object') return node;
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(node as JsonSchema)) {
    if (key === '$id' || key === '$schema') continue;
    out[key] = key === '$ref' && typeof value === 'string' ? refTo(resourceForRef(value)) : embedSchema(value, refTo);
  }
  return out;
}

/**
 * One self-contained schema for a resource, every resource it refers to under `$defs`: for tools that cannot follow
 * file refs.
 */
export function bundledSchema(name: ResourceName): JsonSchema {
  const refTo = (target: ResourceName) => `#/$defs/${target}`;
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    ...(embedSchema(schemas[name], refTo) as JsonSchema),
    $defs: Object.fromEntries(resourceNames.map((other) => [other, embedSchema(schemas[other], refTo)])),
  };
}
