import { isJsonObject } from '../../schemas/json-object.js';
import { dereference, requiredProperties, type JsonSchema, type ResourceName } from '../../schemas/index.js';
import { matchingBranch } from '../../schemas/walk.js';

/** What a walk does at each object of an instance: the object, and its schema's properties. */
export type ObjectVisit = (value: Record<string, unknown>, properties: Record<string, JsonSchema>) => void;

/**
 * Calls `visit` on every object of an instance that its schema describes, parents before children, following the
 * anyOf branch each value matches; the walk reads the schema, so it follows schema changes.
 */
export function visitObjects(value: unknown, node: JsonSchema, visit: ObjectVisit): void {
  const schema = dereference(node);
  if (Array.isArray(schema.anyOf)) {
    // The branch the value matches, so the walk follows the shape actually sent (evaluator_config's alternatives).
    const branch = matchingBranch(schema, value);
    if (branch) visitObjects(value, branch, visit);
    return;
  }
  if (Array.isArray(value)) {
    if (isJsonObject(schema.items)) for (const item of value) visitObjects(item, schema.items as JsonSchema, visit);
    return;
  }
  if (!isJsonObject(value) || !isJsonObject(schema.properties)) return;
  const properties = schema.properties as Record<string, JsonSchema>;
  visit(value, properties);
  for (const [name, property] of Object.entries(properties))
    if (Object.hasOwn(value, name)) visitObjects(value[name], property, visit);
}

/**
 * Sends every optional field an object leaves out as an explicit null, the way real deployments serialize pydantic
 * models (domain notes): a visit of visitObjects, so the fields come from the schema and follow its changes. Outside
 * the spec, whose types do not include null: for testing a client's null handling only.
 */
export function fillNulls(value: Record<string, unknown>, properties: Record<string, JsonSchema>): void {
  const names = Object.keys(properties);
  if (names.every((name) => Object.hasOwn(value, name))) return;
  // pydantic writes a model's fields in their declared order, nulls in place: rebuilt in that order, others after.
  const sent = { ...value };
  for (const name of Object.keys(sent)) delete value[name];
  for (const name of names) value[name] = Object.hasOwn(sent, name) ? sent[name] : null;
  Object.assign(value, sent);
}

/** Each resource's required fields, read off its schema once rather than per request. */
const requiredSets = new Map<ResourceName, ReadonlySet<string>>();

function requiredOf(name: ResourceName): ReadonlySet<string> {
  let required = requiredSets.get(name);
  if (!required) requiredSets.set(name, (required = new Set(requiredProperties(name))));
  return required;
}

/**
 * A request body with each optional top-level field sent as `null` left out, as the real service reads it (pydantic
 * takes `null` for an `Optional` field as absent): both generations of its SDK send `"lm_providers_keys": null` and
 * `"correct_answer_column": null` for a `None`. A null in a required field, or inside a field's value, stays for the
 * validator to refuse. `absent`: the fields left out, for the journal's note; `body` is the body itself when nothing
 * was left out, a shallow copy otherwise.
 */
export function withoutNullOptionals(name: ResourceName, body: unknown): { body: unknown; absent: string[] } {
  if (!isJsonObject(body)) return { body, absent: [] };
  const required = requiredOf(name);
  const absent = Object.keys(body).filter((key) => body[key] === null && !required.has(key));
  if (absent.length === 0) return { body, absent };
  const copy = { ...body };
  for (const key of absent) delete copy[key];
  return { body: copy, absent };
}
