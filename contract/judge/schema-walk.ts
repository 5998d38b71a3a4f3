import { dereference as resolve, schemas, type JsonSchema, type ResourceName } from '../../schemas/index.js';
import { pointerOf, pointerTokens } from '../../schemas/validators/json-pointer.js';
import { matchingBranch, propertiesOf, schemaAt } from '../../schemas/walk.js';

/** Questions the checks ask of the schemas, so no field list is ever restated outside schemas/. */

/** True when the pointer names a property its object's schema declares but does not require. */
export function isOptionalProperty(name: ResourceName, data: unknown, pointer: string): boolean {
  const tokens = pointerTokens(pointer);
  const key = tokens.pop();
  if (key === undefined) return false;
  const parent = schemaAt(schemas[name], data, tokens);
  if (!parent || !Object.hasOwn(propertiesOf(parent) ?? {}, key)) return false;
  return !((parent.required as string[] | undefined) ?? []).includes(key);
}

/** One field of a value as the schema sees it: its pointer, and its documented path when the schema declares it. */
export interface SchemaField {
  pointer: string;
  /** From the resource, arrays as `[]`: `status.error.message`, `aggregated_results[].result`; none: undeclared. */
  path?: string;
  value: unknown;
}

/**
 * Every field of a value, wherever the schema declares properties, in document order: a declared field is descended
 * into, an undeclared one is listed without a path and not descended into.
 */
export function fieldsOf(name: ResourceName, data: unknown): SchemaField[] {
  const found: SchemaField[] = [];
  const walk = (given: JsonSchema, value: unknown, pointer: string, path: string) => {
    let schema: JsonSchema | undefined = resolve(given);
    if (schema.anyOf) schema = matchingBranch(schema, value);
    if (!schema || value === null || typeof value !== 'object') return;
    if (Array.isArray(value)) {
      const items = schema.items as JsonSchema | undefined;
      if (items) value.forEach((item, index) => walk(items, item, `${pointer}/${index}`, `${path}[]`));
      return;
    }
    const declared = propertiesOf(schema);
    if (!declared) return;
    for (const [key, child] of Object.entries(value)) {
      const childPointer = `${pointer}${pointerOf([key])}`;
      const childSchema = declared[key];
      if (!childSchema) {
        found.push({ pointer: childPointer, value: child });
        continue;
      }
      const childPath = path === '' ? key : `${path}.${key}`;
      found.push({ pointer: childPointer, path: childPath, value: child });
      walk(childSchema, child, childPointer, childPath);
    }
  };
  walk(schemas[name], data, '', '');
  return found;
}

/** Pointers of fields the schema does not declare, wherever the schema declares properties. */
export function undeclaredFields(fields: readonly SchemaField[]): string[] {
  return fields.filter((field) => field.path === undefined).map((field) => field.pointer);
}

/**
 * Every field a resource's schema documents, by path (as fieldsOf writes it), in schema order: nested objects,
 * array items and `$ref`s followed, each branch of an anyOf that declares properties (evaluator_config's documented
 * one).
 */
export function documentedFields(name: ResourceName): string[] {
  const fields = new Set<string>();
  const walk = (given: JsonSchema, path: string) => {
    const schema = resolve(given);
    for (const branch of (schema.anyOf as JsonSchema[] | undefined) ?? []) walk(branch, path);
    if (schema.items) walk(schema.items as JsonSchema, `${path}[]`);
    for (const [key, child] of Object.entries(propertiesOf(schema) ?? {})) {
      const childPath = path === '' ? key : `${path}.${key}`;
      fields.add(childPath);
      walk(child, childPath);
    }
  };
  walk(schemas[name], '');
  return [...fields];
}

/** A schema that leaves the shape of its value's contents open: any value (Result.value), any object or array. */
function isOpen(schema: JsonSchema): boolean {
  return (
    !schema.properties &&
    !schema.items &&
    !schema.anyOf &&
    (schema.additionalProperties === undefined || schema.additionalProperties === true) &&
    (schema.type === undefined || schema.type === 'object' || schema.type === 'array')
  );
}

/**
 * The pointer of the open position a path passes through, where the spec leaves the shape open (an undeclared
 * field, the undocumented evaluator_config alternative, settings_values, Result.value), or undefined when the path
 * stays in typed positions (or leaves them through a value of the wrong type). `array`: the body is an array of the
 * resource.
 */
export function openPositionOf(
  name: ResourceName,
  array: boolean,
  data: unknown,
  tokens: readonly string[],
): string | undefined {
  let schema: JsonSchema | undefined = array ? { type: 'array', items: schemas[name] } : schemas[name];
  let node = data;
  for (let index = 0; index <= tokens.length; index++) {
    schema = resolve(schema);
    if (schema.anyOf) schema = matchingBranch(schema, node);
    if (!schema) return undefined;
    if (isOpen(schema)) return pointerOf(tokens.slice(0, index));
    const token = tokens[index];
    if (token === undefined) return undefined;
    if (schema.items) {
      if (!Array.isArray(node)) return undefined;
      schema = schema.items as JsonSchema;
    } else if (propertiesOf(schema)) {
      if (node === null || typeof node !== 'object' || Array.isArray(node)) return undefined;
      schema = propertiesOf(schema)?.[token];
      if (!schema) return pointerOf(tokens.slice(0, index + 1));
    } else return undefined;
    node = (node as Record<string, unknown>)[token];
  }
  return undefined;
}

/** The schemas a position may have: its $refs followed and each anyOf branch taken, as no value picks one. */
function alternatives(given: readonly JsonSchema[]): JsonSchema[] {
  return given.flatMap((schema) => {
    const resolved = resolve(schema);
    const branches = resolved.anyOf as JsonSchema[] | undefined;
    return branches ? [resolved, ...alternatives(branches)] : [resolved];
  });
}

/**
 * A pointer into a resource as the field it names, whatever the value: array indices (past the schema too) and the
 * keys of a map the schema declares (`lm_providers_keys`, `settings_values`) as `*`, declared and undeclared property
 * names kept. The tenth record's field and a key named otherwise are the same field: what a finding's cause names.
 */
export function fieldPattern(name: ResourceName, pointer: string): string {
  let positions: JsonSchema[] = [schemas[name]];
  const pattern: string[] = [];
  for (const token of pointerTokens(pointer)) {
    const here = alternatives(positions);
    const declared = here.flatMap((schema) => {
      const properties = propertiesOf(schema) ?? {};
      return Object.hasOwn(properties, token) ? [properties[token] as JsonSchema] : [];
    });
    const items = /^\d+$/.test(token)
      ? here.flatMap((schema) => (schema.items ? [schema.items as JsonSchema] : []))
      : [];
    const mapped = here.flatMap(({ additionalProperties: values }) =>
      values === true ? [{}] : values !== null && typeof values === 'object' ? [values as JsonSchema] : [],
    );
    positions = declared.length > 0 ? declared : items.length > 0 ? items : mapped;
    const anyOne = items.length > 0 || mapped.length > 0 || (positions.length === 0 && /^\d+$/.test(token));
    pattern.push(declared.length > 0 ? token : anyOne ? '*' : token);
  }
  return pointerOf(pattern);
}
