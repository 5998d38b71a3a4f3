import { dereference, type JsonSchema } from '../../schemas/index.js';
import { isJsonObject } from '../../schemas/json-object.js';
import type { ValidationStack } from '../../generators/vocabulary.js';

/**
 * A request body read as the real service's pydantic models read it (pydantic 1.10 or 2.7 in lax mode, the stacks of
 * generators/vocabulary.ts), with the model read off the JSON Schema: an object with properties is a model, one with
 * only additionalProperties a dict, an array a list, and a property the schema does not require is `Optional`. What
 * each stack coerces, refuses and in which order (a model's fields in declared order, a list's items in order) was
 * measured against the real service at v0.17.5 and v0.24.4 (../shared/real-service). Iterative in the request's own
 * depth only: the body is already bounded (request-body.ts).
 */

/** Where a problem is: `body`, then field names, list indexes and dict keys, as FastAPI's `loc`. */
export type Location = Array<string | number>;

/** What went wrong, in neither stack's words (pydantic-words.ts words them). */
export type ProblemKind =
  | 'missing'
  | 'none'
  | 'string_type'
  | 'int_type'
  | 'int_parsing'
  | 'int_from_float'
  | 'list_type'
  | 'dict_type'
  | 'model_type'
  | 'enum';

export interface Problem {
  kind: ProblemKind;
  loc: Location;
  /** The value refused (pydantic 2's `input`): for `missing`, the object the field is missing from. */
  input: unknown;
  /** What the schema expects where the value is: `none` is worded by it under pydantic 2. */
  expects?: SchemaKind;
  /** For `enum`: the accepted names. */
  accepted?: readonly string[];
}

export interface ModelRules {
  stack: ValidationStack;
  /** The names a dict's keys may take, by the dict's location (`body.lm_providers_keys`); absent: any name. */
  keyNames?: ReadonlyMap<string, readonly string[]>;
  /** Refuse null in an Optional field (the spec's letter), where pydantic reads it as absent. */
  strictNulls?: boolean;
}

type SchemaKind = 'model' | 'dict' | 'list' | 'string' | 'integer' | 'other';

function kindOf(schema: JsonSchema): SchemaKind {
  if (schema.type === 'object') return isJsonObject(schema.properties) ? 'model' : 'dict';
  if (schema.type === 'array') return 'list';
  if (schema.type === 'string') return 'string';
  return schema.type === 'integer' ? 'integer' : 'other';
}

/** The problem kind of a value of the wrong type for each kind of schema. */
const typeProblems: Record<SchemaKind, ProblemKind | undefined> = {
  model: 'model_type',
  dict: 'dict_type',
  list: 'list_type',
  string: 'string_type',
  integer: 'int_type',
  other: undefined,
};

/**
 * What Python's `dict(value)` makes of a JSON value, as pydantic 1 calls it on what is not a dict: a list of
 * two-item lists or two-character strings becomes their pairs, an empty string an empty dict; else undefined
 * (TypeError or ValueError). Keys that are not strings are refused too: the model's `**` would raise.
 */
function pythonDict(value: unknown): Record<string, unknown> | undefined {
  if (value === '') return {};
  if (!Array.isArray(value)) return undefined;
  const entries: Array<[string, unknown]> = [];
  for (const item of value) {
    const pair = typeof item === 'string' ? [...item] : item;
    if (!Array.isArray(pair) || pair.length !== 2 || typeof pair[0] !== 'string') return undefined;
    entries.push([pair[0], pair[1]]);
  }
  return Object.fromEntries(entries);
}

/** Python's int() of a string: spaces around, a sign, decimal digits (any script's) with single underscores between. */
const pythonIntText = /^\s*[+-]?\p{Nd}+(?:_\p{Nd}+)*\s*$/u;
/** pydantic-core's: ASCII digits, underscores between, and a fraction of zeros only (`10.0`). */
const pydantic2IntText = /^\s*[+-]?[0-9]+(?:_[0-9]+)*(?:\.0*)?\s*$/;
/** pydantic 1 refuses integer strings longer than Python's max_str_digits. */
const maxIntDigits = 4300;

/** An integer as the stack reads it: the number, or the problem. Python's ints are unbounded; JS keeps the value. */
function integerOf(value: unknown, stack: ValidationStack): number | ProblemKind {
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return 'int_type';
    if (Number.isInteger(value)) return value;
    return stack === 'pydantic1' ? Math.trunc(value) : 'int_from_float';
  }
  if (typeof value === 'string') {
    const text = stack === 'pydantic1' ? pythonIntText : pydantic2IntText;
    if (value.length > maxIntDigits || !text.test(value)) return stack === 'pydantic1' ? 'int_type' : 'int_parsing';
    // Only ASCII digits convert here; another script's digits stand for a valid integer whose value the answer
    // never shows (rate_limit is not echoed).
    const converted = Number(value.trim().replace(/_/g, ''));
    return Number.isFinite(converted) ? Math.trunc(converted) : 0;
  }
  return 'int_type';
}

/** A string as the stack reads it: pydantic 1 writes numbers and booleans as Python's str() does. */
function stringOf(value: unknown, stack: ValidationStack): string | undefined {
  if (typeof value === 'string') return value;
  if (stack === 'pydantic2') return undefined;
  if (typeof value === 'boolean') return value ? 'True' : 'False';
  return typeof value === 'number' ? String(value) : undefined;
}

/** One value to validate (where it is, its schema, where its coerced value goes), or a problem met in its turn. */
type Task =
  { value: unknown; schema: JsonSchema; loc: Location; assign: (value: unknown) => void } | { problem: Problem };

/**
 * Validates `body` against the model `schema` as `rules.stack` would: the problems in pydantic's order, and the value
 * with what the stack coerces coerced (`"10"` read as 10). The root is the request body: JSON `null` stands for none.
 */
export function validateModel(
  schema: JsonSchema,
  body: unknown,
  rules: ModelRules,
): { value: unknown; problems: Problem[] } {
  const problems: Problem[] = [];
  let result: unknown;
  if (body === null) {
    problems.push({ kind: 'missing', loc: ['body'], input: null });
    return { value: undefined, problems };
  }
  // A stack walked in document order: a field's nested problems come before the next field's, as pydantic has them.
  const stack: Task[] = [{ value: body, schema, loc: ['body'], assign: (value) => (result = value) }];
  for (let task = stack.pop(); task; task = stack.pop()) {
    if ('problem' in task) problems.push(task.problem);
    else stack.push(...validateOne(task, rules, problems).reverse());
  }
  return { value: result, problems };
}

/** Validates one value; returns the tasks of its children, in order. */
function validateOne(task: ValueTask, rules: ModelRules, problems: Problem[]): Task[] {
  const { value, loc, assign } = task;
  const schema = dereference(task.schema);
  const kind = kindOf(schema);
  const refuse = (problem: ProblemKind) => problems.push({ kind: problem, loc, input: value, expects: kind });
  if (value === null) {
    // A null where a value is required (an Optional null never reaches here).
    if (rules.stack === 'pydantic1') problems.push({ kind: 'none', loc, input: null, expects: kind });
    else refuse(typeProblems[kind] ?? 'none');
    return [];
  }
  switch (kind) {
    case 'string': {
      const read = stringOf(value, rules.stack);
      if (read === undefined) refuse('string_type');
      else assign(read);
      return [];
    }
    case 'integer': {
      const read = integerOf(value, rules.stack);
      if (typeof read === 'string') refuse(read);
      else assign(read);
      return [];
    }
    case 'list': {
      if (!Array.isArray(value)) {
        refuse('list_type');
        return [];
      }
      const list: unknown[] = [];
      assign(list);
      const items = (schema.items ?? {}) as JsonSchema;
      return value.map((item, index) => ({
        value: item,
        schema: items,
        loc: [...loc, index],
        assign: (read: unknown) => (list[index] = read),
      }));
    }
    case 'model':
      return modelFields(task, schema, rules, problems);
    case 'dict':
      return dictEntries(task, schema, rules, problems);
    default:
      assign(value);
      return [];
  }
}

/** An object as the stack takes it for a model or a dict: pydantic 1 also tries Python's dict(); else undefined. */
function objectOf(value: unknown, stack: ValidationStack): Record<string, unknown> | undefined {
  if (isJsonObject(value)) return value;
  return stack === 'pydantic1' ? pythonDict(value) : undefined;
}

type ValueTask = Exclude<Task, { problem: Problem }>;

function modelFields(task: ValueTask, schema: JsonSchema, rules: ModelRules, problems: Problem[]): Task[] {
  const object = objectOf(task.value, rules.stack);
  if (!object) {
    problems.push({ kind: 'model_type', loc: task.loc, input: task.value, expects: 'model' });
    return [];
  }
  const required = new Set((schema.required as string[] | undefined) ?? []);
  // Fields the model does not declare are dropped, as pydantic's default (`extra = ignore`) does.
  const model: Record<string, unknown> = {};
  task.assign(model);
  const tasks: Task[] = [];
  for (const [name, property] of Object.entries(schema.properties as Record<string, JsonSchema>)) {
    const loc = [...task.loc, name];
    if (!Object.hasOwn(object, name)) {
      if (required.has(name)) tasks.push({ problem: { kind: 'missing', loc, input: object } });
      continue;
    }
    const value = object[name];
    // pydantic's Optional takes null as absent; the spec's letter (strictNulls) refuses it as a value of no type.
    if (value === null && !required.has(name) && !rules.strictNulls) continue;
    tasks.push({ value, schema: property, loc, assign: (read) => (model[name] = read) });
  }
  return tasks;
}

function dictEntries(task: ValueTask, schema: JsonSchema, rules: ModelRules, problems: Problem[]): Task[] {
  const object = objectOf(task.value, rules.stack);
  if (!object) {
    problems.push({ kind: 'dict_type', loc: task.loc, input: task.value, expects: 'dict' });
    return [];
  }
  const names = rules.keyNames?.get(task.loc.join('.'));
  const values = (isJsonObject(schema.additionalProperties) ? schema.additionalProperties : {}) as JsonSchema;
  const dict: Record<string, unknown> = {};
  task.assign(dict);
  const tasks: Task[] = [];
  for (const [key, value] of Object.entries(object)) {
    if (names && !names.includes(key)) {
      // pydantic 1 reports the key and skips its value; pydantic 2 reports the key and still checks the value.
      const loc = rules.stack === 'pydantic1' ? [...task.loc, '__key__'] : [...task.loc, key, '[key]'];
      tasks.push({ problem: { kind: 'enum', loc, input: key, accepted: names } });
      if (rules.stack === 'pydantic1') continue;
    }
    tasks.push({ value, schema: values, loc: [...task.loc, key], assign: (read) => (dict[key] = read) });
  }
  return tasks;
}
