import { dereference, resourceNames, schemas, type JsonSchema } from './index.js';
import { validatorFor } from './validators/index.js';

/** The one walk down a schema by a value's path, for the judge's questions and the mock's 422 wording alike. */

/** The properties a schema declares, by name; undefined when it declares none. */
export function propertiesOf(schema: JsonSchema): Record<string, JsonSchema> | undefined {
  return schema.properties as Record<string, JsonSchema> | undefined;
}

/** The branch of an anyOf a value matches, when the branches are resources (evaluator_config's are). */
export function matchingBranch(schema: JsonSchema, value: unknown): JsonSchema | undefined {
  for (const branch of (schema.anyOf as JsonSchema[] | undefined) ?? []) {
    const target = dereference(branch);
    const name = resourceNames.find((resource) => schemas[resource] === target);
    if (name && validatorFor(name)(value)) return schemas[name];
  }
  return undefined;
}

/**
 * The subschema a schema gives one child of its value: an array's items, a declared property (own properties
 * only, so `constructor` or `__proto__` is never taken for one), else an object schema's additionalProperties.
 */
function childSchema(schema: JsonSchema, token: string): JsonSchema | undefined {
  if (schema.type === 'array') return schema.items as JsonSchema | undefined;
  const declared = propertiesOf(schema);
  if (declared && Object.hasOwn(declared, token)) return declared[token];
  return typeof schema.additionalProperties === 'object' ? (schema.additionalProperties as JsonSchema) : undefined;
}

/**
 * The schema that governs the value at a path (a JSON pointer's tokens) of `data`, from `root`: following $refs,
 * array items, properties and additionalProperties, and through an anyOf the branch the value there matches.
 * Undefined when the path leaves the schema or the anyOf branch is ambiguous.
 */
export function schemaAt(root: JsonSchema, data: unknown, tokens: readonly string[]): JsonSchema | undefined {
  let schema: JsonSchema | undefined = root;
  let node = data;
  for (const token of tokens) {
    if (!schema) return undefined;
    schema = dereference(schema);
    if (schema.anyOf) schema = matchingBranch(schema, node);
    if (!schema) return undefined;
    schema = childSchema(schema, token);
    node = node !== null && typeof node === 'object' ? (node as Record<string, unknown>)[token] : undefined;
  }
  return schema && dereference(schema);
}
