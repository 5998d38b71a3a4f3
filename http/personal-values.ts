import { dereference, schemaFiles, schemas, type JsonSchema, type ResourceName } from '../schemas/index.js';
import { personalMark } from '../schemas/personal.js';
import { matchingBranch, propertiesOf } from '../schemas/walk.js';
import { pathOf, walkJson, type JsonKey } from './json-walk.js';

/**
 * The strings of a record, each by what its schema says of it (schemas/personal.ts): personal, declared and not
 * personal (a state, a date, a type), or undeclared (a field the spec does not list, a value under `settings_values`,
 * anything with no schema). Read by the one walk over JSON (http/json-walk.ts), so no nesting exhausts the stack.
 */
export type StringKind = 'personal' | 'declared' | 'undeclared';

/** Where the walk stands: the schema of the value there (undefined: none), and the mark decided above it. */
interface Place {
  schema: JsonSchema | undefined;
  mark: boolean | undefined;
}

/** The schema a value stands under once `$ref`s are followed and an anyOf's matching branch taken. */
function resolved(schema: JsonSchema | undefined, value: unknown): JsonSchema | undefined {
  if (schema === undefined) return undefined;
  const target = dereference(schema);
  return target.anyOf ? matchingBranch(target, value) : target;
}

/** The place of a member, from its holder's: the first mark met on the way down decides. */
function memberPlace(holder: Place, key: JsonKey, value: unknown): Place {
  const { schema } = holder;
  let child: JsonSchema | undefined;
  if (schema !== undefined) {
    if (typeof key === 'number') child = schema.items as JsonSchema | undefined;
    else {
      const declared = propertiesOf(schema);
      child =
        declared && Object.hasOwn(declared, key)
          ? declared[key]
          : typeof schema.additionalProperties === 'object'
            ? (schema.additionalProperties as JsonSchema)
            : undefined;
    }
  }
  // A mark beside a `$ref` is read before the referenced schema's own.
  const mark = holder.mark ?? personalMark(child) ?? (child && personalMark(dereference(child)));
  return { schema: resolved(child, value), mark };
}

function kindAt(place: Place): StringKind {
  if (place.mark === true) return 'personal';
  return place.schema === undefined ? 'undeclared' : 'declared';
}

/** The schema of a body: one record of a resource, or an array of them (a create's answer). */
export function bodySchema(resource: ResourceName, array = false): JsonSchema {
  return array ? { type: 'array', items: { $ref: schemaFiles[resource] } } : schemas[resource];
}

/**
 * Hands each string of `value`, read by `schema` (undefined: none), to `visit` with its kind and the way to its path
 * (spelt only when asked); the string `visit` returns takes its place (in place: the caller owns the value). Object
 * keys are kept. Returns the value, a new one when the root itself is a string.
 */
export function mapStrings(
  schema: JsonSchema | undefined,
  value: unknown,
  visit: (text: string, kind: StringKind, path: () => string[]) => string,
): unknown {
  const root: Place = { schema: resolved(schema, value), mark: personalMark(schema) };
  if (typeof value === 'string') return visit(value, kindAt(root), () => []);
  const places = new Map<object, Place>();
  walkJson(value, (member, key, holder) => {
    const place =
      holder === undefined || key === undefined ? root : memberPlace(places.get(holder.value)!, key, member);
    if (member !== null && typeof member === 'object') places.set(member, place);
    else if (typeof member === 'string' && holder !== undefined && key !== undefined) {
      const next = visit(member, kindAt(place), () => pathOf(holder, key));
      if (next !== member) (holder.value as Record<JsonKey, unknown>)[key] = next;
    }
  });
  return value;
}
