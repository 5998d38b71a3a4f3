import { readFileSync } from 'node:fs';

/** A JSON Schema document as read from schemas/; kept loose because schemas are data, not code. */
export type JsonSchema = { [keyword: string]: unknown };

/**
 * The resources of the spec, by the schema file that defines each. This is the one list of schema files:
 * everything else (validators, OpenAPI, types, generators, fixtures) iterates it.
 */
export const schemaFiles = {
  HumanEvaluation: 'human-evaluation.json',
  Evaluation: 'evaluation.json',
  Result: 'result.json',
  Error: 'error.json',
  AggregatedResult: 'aggregated-result.json',
  EvaluatorConfig: 'evaluator-config.json',
  UndocumentedEvaluatorConfig: 'undocumented-evaluator-config.json',
  CreateEvaluationRequest: 'create-evaluation-request.json',
  RateLimit: 'rate-limit.json',
} as const;

export type ResourceName = keyof typeof schemaFiles;

export const resourceNames = Object.keys(schemaFiles) as ResourceName[];

export function isResourceName(name: string): name is ResourceName {
  return Object.hasOwn(schemaFiles, name);
}

function load(file: string): JsonSchema {
  // The build copies the JSON beside the compiled module, so this path holds for source and dist alike.
  return JSON.parse(readFileSync(new URL(`./${file}`, import.meta.url), 'utf8')) as JsonSchema;
}

export const schemas: Readonly<Record<ResourceName, JsonSchema>> = Object.freeze(
  Object.fromEntries(resourceNames.map((name) => [name, load(schemaFiles[name])])) as Record<ResourceName, JsonSchema>,
);

export function schemaId(name: ResourceName): string {
  return schemas[name].$id as string;
}

/** Property names a resource's schema declares, in schema order. */
export function declaredProperties(name: ResourceName): string[] {
  return Object.keys((schemas[name].properties as Record<string, unknown> | undefined) ?? {});
}

/** Property names a resource's schema marks required. */
export function requiredProperties(name: ResourceName): string[] {
  return [...((schemas[name].required as string[] | undefined) ?? [])];
}
