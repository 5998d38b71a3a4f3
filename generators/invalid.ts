import { dereference as resolve, schemas, type JsonSchema, type ResourceName } from '../schemas/index.js';
import { cloneJson } from '../schemas/json-object.js';
import { validate } from '../schemas/validators/index.js';
import { pointerOf } from '../schemas/validators/json-pointer.js';

/** A body that breaks exactly one rule of its schema, and the rule it breaks. */
export interface InvalidCase {
  /** e.g. `/rate_limit/batch_size: type integer (sent as the string "10")`. */
  rule: string;
  pointer: string;
  keyword: 'required' | 'type';
  body: unknown;
}

/** Values of another type than the schema's, each a mistake a client really makes. */
function wrongTypeValues(schema: JsonSchema, current: unknown): Array<[string, unknown]> {
  switch (schema.type) {
    case 'string':
      return [
        ['a number', 42],
        ['null', null],
      ];
    case 'integer':
      return [
        [`the string "${String(current)}"`, String(current)],
        ['a float', Number(current) + 0.5],
        ['null', null],
      ];
    case 'number':
      return [
        ['a string', String(current)],
        ['null', null],
      ];
    case 'boolean':
      return [['the string "true"', 'true']];
    case 'array':
      return [
        ['a string', 'not-an-array'],
        ['an object', {}],
      ];
    case 'object':
      return [
        ['an array', []],
        ['a string', 'not-an-object'],
      ];
    default:
      return [];
  }
}

function setAt(body: unknown, path: string[], value: unknown | typeof remove): unknown {
  const copy = cloneJson(body) as Record<string, unknown>;
  let node = copy;
  for (const key of path.slice(0, -1)) node = node[key] as Record<string, unknown>;
  const last = path[path.length - 1] as string;
  if (value === remove) delete node[last];
  else node[last] = value;
  return copy;
}

const remove = Symbol('remove');

/** The cases of the value at `path` sent as another type than `schema`'s; `skipNull` leaves out null. */
function* wrongTypeCases(
  root: unknown,
  schema: JsonSchema,
  current: unknown,
  path: string[],
  skipNull = false,
): Generator<InvalidCase> {
  const pointer = pointerOf(path);
  for (const [sentAs, wrong] of wrongTypeValues(schema, current)) {
    if (wrong === null && skipNull) continue;
    yield {
      rule: `${pointer}: type ${String(schema.type)} (sent as ${sentAs})`,
      pointer,
      keyword: 'type',
      body: setAt(root, path, wrong),
    };
  }
}

function* mutations(root: unknown, schema: JsonSchema, value: unknown, path: string[]): Generator<InvalidCase> {
  const resolved = resolve(schema);
  if (resolved.type === 'object' && value && typeof value === 'object' && !Array.isArray(value)) {
    const required = new Set((resolved.required as string[] | undefined) ?? []);
    const properties = (resolved.properties as Record<string, JsonSchema> | undefined) ?? {};
    for (const [name, propertySchema] of Object.entries(properties)) {
      const childPath = [...path, name];
      const pointer = pointerOf(childPath);
      if (required.has(name)) {
        yield {
          rule: `${pointer}: required (removed)`,
          pointer,
          keyword: 'required',
          body: setAt(root, childPath, remove),
        };
      }
      if (!(name in (value as object))) continue;
      const child = (value as Record<string, unknown>)[name];
      const childSchema = resolve(propertySchema);
      // The service reads null in an optional field as absent (pydantic; decisions #12): not a mistake it refuses.
      yield* wrongTypeCases(root, childSchema, child, childPath, !required.has(name));
      yield* mutations(root, childSchema, child, childPath);
    }
    const additional = resolved.additionalProperties as JsonSchema | undefined;
    const firstKey = Object.keys(value as object).find((key) => !(key in properties));
    if (additional && typeof additional === 'object' && firstKey !== undefined) {
      const current = (value as Record<string, unknown>)[firstKey];
      yield* wrongTypeCases(root, additional, current, [...path, firstKey]);
    }
  } else if (resolved.type === 'array' && Array.isArray(value) && value.length > 0 && resolved.items) {
    yield* wrongTypeCases(root, resolve(resolved.items as JsonSchema), value[0], [...path, '0']);
  }
}

/**
 * Every single-rule breakage of a valid instance that its schema allows deriving: each required field removed,
 * each field (and array item, and map value) of a wrong type. Each returned body fails validation with exactly one
 * issue, at the named pointer; the schema is the only source, so new fields get cases with no code change.
 */
export function invalidCases(name: ResourceName, valid: unknown): InvalidCase[] {
  const cases: InvalidCase[] = [];
  for (const candidate of mutations(valid, schemas[name], valid, [])) {
    const { issues } = validate(name, candidate.body);
    if (issues.length === 1 && issues[0]?.pointer === candidate.pointer) cases.push(candidate);
  }
  return cases;
}
