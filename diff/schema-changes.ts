import { OpenApiDocument } from './document.js';
import { capped } from '../http/excerpt.js';
import { isJsonObject as isObject } from '../schemas/json-object.js';

/** Which side of the exchange a schema describes: the client writes a request and reads a response. */
export type Part = 'request' | 'response';

/** One change of a schema, at a field path below the schema's root (`status`, `value`; `[]` for an array's items). */
export interface SchemaChange {
  segments: string[];
  change: string;
  breaking: boolean;
  /**
   * Where the same two schemas were compared first, when they are met again at another field: their changes are
   * listed there once, and here in one line (a schema every field of a fan-out refers to is compared once).
   */
  sameAs?: string[];
  /** A component renamed: named once, no change of the schemas it is met in (their comparison stays unchanged). */
  rename?: true;
}

type Json = Record<string, unknown>;

/** What a change does to the set of values a schema allows. */
interface Effect {
  wider: boolean;
  narrower: boolean;
}

/**
 * The direction rule: a client reads a response written against the old schema, so a response that may now carry
 * more (a value, a type, a null) breaks it; a client writes a request the old schema allowed, so a request schema that
 * now allows less breaks it.
 */
function breaks(part: Part, { wider, narrower }: Effect): boolean {
  return part === 'response' ? wider : narrower;
}

/** A schema with its allOf merged and a `T or null` alternative turned into `T` nullable: the forms compared. */
interface Shape {
  schema: Json;
  types: Set<string> | undefined;
  nullable: boolean;
}

/** The schema of a side that has none (an array without `items`): one object, so comparisons can remember it. */
const nothing: Json = Object.freeze({}) as Json;

/**
 * Schemas nested deeper than this below one operation's part (fields in fields, or allOf in allOf) are refused: no
 * real API nests so far, and following them further would cost the engine's stack rather than give an answer.
 */
const maxSchemaDepth = 200;

/** A key set as an own property whatever its name (`obj[key] = …` would set the prototype for `__proto__`). */
function put(target: Json, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

const arrayOf = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

/** A keyword's value in a message: a string as it is, anything else as JSON (String() throws on some objects). */
const text = (value: unknown): string => (typeof value === 'string' ? value : (JSON.stringify(value) ?? 'undefined'));

const scalarKeys = ['format', 'pattern'] as const;
const upperBounds = ['maximum', 'exclusiveMaximum', 'maxLength', 'maxItems', 'maxProperties'] as const;
const lowerBounds = ['minimum', 'exclusiveMinimum', 'minLength', 'minItems', 'minProperties'] as const;
/** Counts: none is 0, so a lower bound of 0 (or below) constrains nothing, as if it were absent. */
const counts = new Set<string>(['minLength', 'minItems', 'minProperties']);

const isNumber = (value: unknown) => typeof value === 'number' && Number.isFinite(value);
const isString = (value: unknown) => typeof value === 'string';

/**
 * The keywords compared below, each by what it lets through (the direction rule), with the form they are read in:
 * a value of another form (OpenAPI 3.0's `exclusiveMinimum: true`, `uniqueItems: 0`) is not judged.
 */
const modelled = new Map<string, (value: unknown) => boolean>([
  ...[...upperBounds, ...lowerBounds].map((keyword) => [keyword, isNumber] as const),
  ...scalarKeys.map((keyword) => [keyword, isString] as const),
  ['multipleOf', (value) => isNumber(value) && (value as number) > 0],
  ['uniqueItems', (value) => typeof value === 'boolean'],
  ['nullable', (value) => typeof value === 'boolean'],
  ['type', (value) => isString(value) || (Array.isArray(value) && value.every(isString))],
  ['enum', Array.isArray],
  ['const', () => true],
  ['properties', isObject],
  ['required', Array.isArray],
  ['additionalProperties', (value) => typeof value === 'boolean' || isObject(value)],
  ['items', isObject],
  ['allOf', Array.isArray],
  ['anyOf', Array.isArray],
  ['oneOf', Array.isArray],
  ['propertyNames', isObject],
]);

/** Keywords that describe a value and never refuse one: a change to them changes no client's fate. */
const annotations = new Set<string>([
  'title',
  'description',
  'default',
  'example',
  'examples',
  'deprecated',
  'readOnly',
  'writeOnly',
  '$comment',
  'externalDocs',
  'xml',
  'discriminator',
  '$id',
  '$schema',
  '$anchor',
  '$defs',
  'definitions',
  'contentMediaType',
  'contentEncoding',
  'contentSchema',
]);

/** A bound's value as it constrains: undefined when absent or when it lets everything through (`minItems: 0`). */
function boundOf(schema: Json, keyword: string): number | undefined {
  const value = schema[keyword];
  if (typeof value !== 'number' || !Number.isFinite(value)) return undefined;
  return counts.has(keyword) && value <= 0 ? undefined : value;
}

/** The names of an object's fields are strings: a `propertyNames` schema says which; absent, any string. */
const anyName: Json = Object.freeze({ type: 'string' }) as Json;

/** Keywords that can refuse a null where no `type` is given: a schema holding none of them lets null through. */
const refusesWithoutType = ['enum', 'const', 'anyOf', 'oneOf', 'not', 'allOf', '$ref'] as const;

/** Whether a shape names no type and nothing else that could refuse null: any value, null included, passes. */
function untyped(shape: Shape): boolean {
  return shape.types === undefined && refusesWithoutType.every((keyword) => !Object.hasOwn(shape.schema, keyword));
}

/** The JSON type of a value, as a schema's `type` names it (a whole number is an integer). */
function typeOfValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

/**
 * The types a schema lets through: its `type`, or where it names none, those of the values its `enum` or `const`
 * allows (`{"enum": [true]}` is a boolean), so that a type dropped for an enum of fewer values reads as the narrowing
 * it is, not as a widening to any.
 */
function typesOf(schema: Json): { types: Set<string> | undefined; nullable: boolean } {
  const raw = schema.type;
  const values = Array.isArray(schema.enum) ? schema.enum : Object.hasOwn(schema, 'const') ? [schema.const] : [];
  const listed =
    typeof raw === 'string'
      ? [raw]
      : Array.isArray(raw)
        ? raw.filter((t) => typeof t === 'string')
        : [...new Set(values.map(typeOfValue))];
  const nullable = schema.nullable === true || listed.includes('null') || arrayOf(schema.enum).includes(null);
  const types = listed.filter((type) => type !== 'null');
  // `type: "null"` alone names a type: no other value passes (an empty set), where no `type` at all lets any through.
  return { types: listed.length > 0 ? new Set(types) : undefined, nullable: nullable === true };
}

/** Whether a value of `type` is always a value of one of `types` (an integer is a number). */
function covered(type: string, types: Set<string>): boolean {
  return types.has(type) || (type === 'integer' && types.has('number'));
}

function list(values: Iterable<unknown>): string {
  return [...values].map(text).join(', ');
}

/** A schema's JSON with its keys in order: two spellings of one schema read alike (keys are unordered in JSON). */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) =>
    isObject(item) && !Array.isArray(item)
      ? Object.fromEntries(
          Object.keys(item)
            .sort()
            .map((name) => [name, item[name]]),
        )
      : item,
  );
}

/** The component schema a `$ref` names (`#/components/schemas/Evaluation`), unescaped; undefined for any other. */
function componentName(value: unknown): string | undefined {
  const ref = isObject(value) ? value.$ref : undefined;
  const match = typeof ref === 'string' ? /^#\/components\/schemas\/([^/]+)$/.exec(ref) : null;
  if (!match) return undefined;
  try {
    return decodeURIComponent(match[1] as string)
      .replace(/~1/g, '/')
      .replace(/~0/g, '~');
  } catch {
    return match[1];
  }
}

function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** One document's side of a comparison: its schemas' shapes, each unfolded once. */
class Side {
  readonly shapes = new WeakMap<object, Shape>();
  /** The schemas being unfolded (allOf members, the one alternative beside null): one met again is a loop. */
  readonly unfolding = new Set<object>();
  /** Each `propertyNames` schema with the string type every name has: one object per schema, for the memo. */
  private readonly names = new WeakMap<object, Json>();

  constructor(readonly document: OpenApiDocument) {}

  /** The schema of an object's field names: the one given, read as a string schema, or any string. */
  nameSchema(value: unknown): Json {
    if (value === undefined) return anyName;
    const node = this.node(value);
    let named = this.names.get(node);
    if (named === undefined) {
      named = { type: 'string', ...node };
      this.names.set(node, named);
    }
    return named;
  }

  /** The object a schema value stands for, its `$ref` followed: the same object for the same schema every time. */
  node(value: unknown): Json {
    const resolved = this.document.resolve(value);
    return isObject(resolved) ? resolved : nothing;
  }

  where(node: Json): string {
    return this.document.pointerOf(node) ?? 'a schema without a place in the document';
  }
}

/** A pair being compared further up the descent (met again: a cycle), or compared: where, and what it found. */
type Compared = 'open' | { at: string[]; changed: boolean; breaking: boolean };

/**
 * Compares two versions of a schema, each in its own document, field by field, and words each change with whether
 * it breaks a client on this part of the exchange. `$ref`s are followed. Each pair of schemas is compared once: met
 * again further down its own descent it is a recursive schema (a tree), and nothing more is found there; met again
 * at another field, one line points to the first. So the cost follows the document's size, not the number of paths
 * through it (thirty schemas whose two fields both refer to the next are 2^30 paths).
 */
export class SchemaComparison {
  readonly changes: SchemaChange[] = [];
  private readonly compared = new Map<object, Map<object, Compared>>();
  private readonly old: Side;
  private readonly next: Side;
  private depth = 0;

  constructor(
    before: OpenApiDocument,
    after: OpenApiDocument,
    private readonly part: Part,
    /** Component renames already named, shared by every comparison of one diff: each is named once. */
    private readonly renames: Set<string> = new Set(),
  ) {
    this.old = new Side(before);
    this.next = new Side(after);
  }

  /**
   * The same place referring to a component by another name: the types a project generates and imports by that name
   * change, whatever the shape does (compared on as usual). Named once a diff.
   */
  private renamed(old: unknown, next: unknown, segments: string[]): void {
    const before = componentName(old);
    const after = componentName(next);
    if (before === undefined || after === undefined || before === after) return;
    const key = JSON.stringify([before, after]);
    if (this.renames.has(key)) return;
    this.renames.add(key);
    this.changes.push({
      segments,
      change:
        `schema ${capped(before, 120)} renamed to ${capped(after, 120)}` +
        ': the types a project imports by name change',
      breaking: false,
      rename: true,
    });
  }

  compare(old: unknown, next: unknown, segments: string[] = []): void {
    this.renamed(old, next, segments);
    const oldNode = this.old.node(old);
    const nextNode = this.next.node(next);
    let row = this.compared.get(oldNode);
    if (row === undefined) this.compared.set(oldNode, (row = new Map()));
    const seen = row.get(nextNode);
    if (seen === 'open') return;
    if (seen !== undefined) {
      if (seen.changed) this.changes.push({ segments, change: 'changed', breaking: seen.breaking, sameAs: seen.at });
      return;
    }
    if (this.depth >= maxSchemaDepth) {
      const [side, node] = nextNode === nothing ? [this.old, oldNode] : [this.next, nextNode];
      throw side.document.problem(`schemas nested deeper than ${maxSchemaDepth} levels at ${side.where(node)}`);
    }
    row.set(nextNode, 'open');
    const from = this.changes.length;
    this.depth++;
    try {
      const a = this.shape(this.old, oldNode);
      const b = this.shape(this.next, nextNode);
      this.nullability(a, b, segments);
      this.types(a, b, segments);
      this.keywords(a.schema, b.schema, segments);
      this.arrayKeywords(a.schema, b.schema, segments);
      this.enums(a.schema, b.schema, segments);
      this.properties(a.schema, b.schema, segments);
      this.extraProperties(a.schema, b.schema, segments);
      if (a.schema.propertyNames !== undefined || b.schema.propertyNames !== undefined)
        this.compare(this.old.nameSchema(a.schema.propertyNames), this.next.nameSchema(b.schema.propertyNames), [
          ...segments,
          '(property names)',
        ]);
      this.unmodelled(a.schema, b.schema, segments);
      this.defaults(a.schema, b.schema, segments);
      if (a.schema.items !== undefined || b.schema.items !== undefined)
        this.compare(a.schema.items ?? nothing, b.schema.items ?? nothing, [...segments, '[]']);
      this.alternatives(a.schema, b.schema, segments);
    } finally {
      this.depth--;
    }
    const found = this.changes.slice(from).filter((change) => !change.rename);
    row.set(nextNode, { at: segments, changed: found.length > 0, breaking: found.some((change) => change.breaking) });
  }

  private add(segments: string[], change: string, breaking: boolean): void {
    this.changes.push({ segments, change, breaking });
  }

  private effect(segments: string[], change: string, effect: Effect): void {
    this.add(segments, change, breaks(this.part, effect));
  }

  /**
   * The schema resolved, allOf merged, and `anyOf: [T, {type: null}]` read as T nullable; once per schema. A schema
   * met again while it is being unfolded (its own allOf member, its own one alternative beside null) describes no
   * value: refused, naming it.
   */
  private shape(side: Side, value: unknown, via?: string): Shape {
    const node = side.node(value);
    const known = side.shapes.get(node);
    if (known !== undefined) return known;
    if (side.unfolding.has(node))
      throw side.document.problem(
        `the schema at ${side.where(node)} contains itself through ${via ?? 'allOf'} with no field in between: ` +
          'no value can be checked against it',
      );
    if (side.unfolding.size + this.depth >= maxSchemaDepth)
      throw side.document.problem(`schemas nested deeper than ${maxSchemaDepth} levels at ${side.where(node)}`);
    side.unfolding.add(node);
    let shape: Shape;
    try {
      shape = this.unfold(side, node);
    } finally {
      side.unfolding.delete(node);
    }
    side.shapes.set(node, shape);
    return shape;
  }

  private unfold(side: Side, node: Json): Shape {
    let schema = node;
    if (Array.isArray(schema.allOf)) {
      const properties: Json = {};
      if (isObject(schema.properties))
        for (const [name, value] of Object.entries(schema.properties)) put(properties, name, value);
      const merged: Json = { ...schema, allOf: undefined, properties };
      const required = new Set<unknown>(arrayOf(schema.required));
      for (const member of schema.allOf) {
        const part = this.shape(side, member, 'allOf').schema;
        if (isObject(part.properties))
          for (const [name, value] of Object.entries(part.properties)) put(properties, name, value);
        for (const name of arrayOf(part.required)) required.add(name);
        for (const [keyword, keywordValue] of Object.entries(part))
          if (!Object.hasOwn(merged, keyword) || merged[keyword] === undefined) put(merged, keyword, keywordValue);
      }
      merged.required = [...required];
      schema = merged;
    }
    const { types, nullable } = typesOf(schema);
    for (const keyword of ['anyOf', 'oneOf'] as const) {
      const options = schema[keyword];
      if (!Array.isArray(options)) continue;
      const isNull = (option: unknown) => {
        const shown = side.node(option);
        return shown.type === 'null' || same(shown.enum, [null]);
      };
      const rest = options.filter((option) => !isNull(option));
      if (rest.length === options.length) continue;
      if (rest.length === 1) {
        const inner = this.shape(side, rest[0], keyword);
        return { ...inner, nullable: true };
      }
      return { schema: { ...schema, [keyword]: rest }, types, nullable: true };
    }
    return { schema, types, nullable };
  }

  /**
   * Null let through or not, judged by the values each side allows, not by how it is spelt: a schema with no type and
   * nothing else that refuses a value (`{"title": "Value"}`) allows null already, as `anyOf [{}, {"type": "null"}]`
   * does. Where one side is untyped, the type's own change (`type widened`, `type narrowed`) says it.
   */
  private nullability(a: Shape, b: Shape, segments: string[]): void {
    const before = a.nullable || untyped(a);
    const after = b.nullable || untyped(b);
    if (!before && after && !untyped(b)) this.effect(segments, 'made nullable', { wider: true, narrower: false });
    if (before && !after && !untyped(a)) this.effect(segments, 'no longer nullable', { wider: false, narrower: true });
  }

  private types(a: Shape, b: Shape, segments: string[]): void {
    const before = a.types;
    const after = b.types;
    if (before === undefined && after === undefined) return;
    if (before === undefined) {
      this.effect(segments, `type narrowed from any to ${list(after ?? [])}`, { wider: false, narrower: true });
      return;
    }
    if (after === undefined) {
      this.effect(segments, `type widened from ${list(before)} to any`, { wider: true, narrower: false });
      return;
    }
    const wider = [...after].some((type) => !covered(type, before));
    const narrower = [...before].some((type) => !covered(type, after));
    if (wider || narrower)
      this.effect(segments, `type ${list(before) || 'null'} → ${list(after) || 'null'}`, { wider, narrower });
  }

  /** format and pattern: any change between two values is both ways (date-time → date breaks readers and writers). */
  private keywords(a: Json, b: Json, segments: string[]): void {
    for (const keyword of scalarKeys) {
      const before = a[keyword];
      const after = b[keyword];
      if (same(before, after)) continue;
      const change =
        before === undefined
          ? `${keyword} ${text(after)} added`
          : after === undefined
            ? `${keyword} ${text(before)} removed`
            : `${keyword} ${text(before)} → ${text(after)}`;
      // Added: fewer strings pass. Removed: more do. Changed: each side has strings the other refuses.
      this.effect(segments, change, { wider: before !== undefined, narrower: after !== undefined });
    }
    for (const [keywords, tighter] of [
      [upperBounds, (x: number, y: number) => y < x],
      [lowerBounds, (x: number, y: number) => y > x],
    ] as const)
      for (const keyword of keywords) {
        const before = boundOf(a, keyword);
        const after = boundOf(b, keyword);
        if (before === after) continue;
        const narrower = after !== undefined && (before === undefined || tighter(before, after));
        const change = `${keyword} ${before ?? 'none'} → ${after ?? 'none'}`;
        this.effect(segments, change, { wider: !narrower, narrower });
      }
  }

  /** uniqueItems (false is absent) and multipleOf (a multiple of the old step allows less; a divisor, more). */
  private arrayKeywords(a: Json, b: Json, segments: string[]): void {
    const unique = (schema: Json) => schema.uniqueItems === true;
    if (unique(a) !== unique(b))
      this.effect(segments, unique(b) ? 'uniqueItems added' : 'uniqueItems removed', {
        wider: unique(a),
        narrower: unique(b),
      });
    const step = (schema: Json) =>
      typeof schema.multipleOf === 'number' && schema.multipleOf > 0 ? schema.multipleOf : undefined;
    const before = step(a);
    const after = step(b);
    if (before === after) return;
    const divides = (x: number, y: number) => Number.isInteger(y / x);
    const narrower = after !== undefined && (before === undefined || !divides(after, before));
    const wider = before !== undefined && (after === undefined || !divides(before, after));
    this.effect(segments, `multipleOf ${before ?? 'none'} → ${after ?? 'none'}`, { wider, narrower });
  }

  /**
   * Any other keyword that constrains values (`not`, `if`, `patternProperties`, `dependentRequired`, a vendor's
   * own...): evalkit cannot tell which way its change goes, so it is listed, never passed over, and counted as
   * breaking both ways (docs/diff.md). Annotations and `x-` extensions constrain nothing.
   */
  private unmodelled(a: Json, b: Json, segments: string[]): void {
    const keywords = new Set([...Object.keys(a), ...Object.keys(b)]);
    for (const keyword of keywords) {
      if (annotations.has(keyword) || keyword.startsWith('x-') || keyword === '$ref') continue;
      const before = Object.hasOwn(a, keyword) ? a[keyword] : undefined;
      const after = Object.hasOwn(b, keyword) ? b[keyword] : undefined;
      const form = modelled.get(keyword);
      const judged = form && [before, after].every((value) => value === undefined || form(value));
      if (judged || same(before, after)) continue;
      const what = before === undefined ? 'added' : after === undefined ? 'removed' : 'changed';
      // Every JSON Schema assertion only narrows what passes (a schema is the conjunction of its keywords): added,
      // fewer values pass; removed, more do; changed, each side may refuse what the other allows.
      this.effect(segments, `${keyword} ${what} (evalkit does not model ${keyword}: judged by its direction)`, {
        wider: before !== undefined,
        narrower: after !== undefined,
      });
    }
  }

  /**
   * A request field's default: the value a client that leaves the field out gets. Listed, not breaking: what passes
   * is the same, what the service does with the absent field is not.
   */
  private defaults(a: Json, b: Json, segments: string[]): void {
    if (this.part !== 'request' || same(a.default, b.default)) return;
    const change =
      a.default === undefined
        ? `default ${text(b.default)} added`
        : b.default === undefined
          ? `default ${text(a.default)} removed`
          : `default ${text(a.default)} → ${text(b.default)}`;
    this.add(segments, `${change}: a client that leaves it out gets another value`, false);
  }

  private enums(a: Json, b: Json, segments: string[]): void {
    const values = (schema: Json) =>
      Array.isArray(schema.enum)
        ? schema.enum.filter((value) => value !== null)
        : Object.hasOwn(schema, 'const')
          ? [schema.const]
          : undefined;
    const before = values(a);
    const after = values(b);
    if (before === undefined && after === undefined) return;
    if (before === undefined) {
      this.effect(segments, `enum added: ${list(after ?? [])}`, { wider: false, narrower: true });
      return;
    }
    if (after === undefined) {
      this.effect(segments, `enum removed (was ${list(before)})`, { wider: true, narrower: false });
      return;
    }
    // Sets of each value's JSON: a long enum on both sides costs its length, not its square.
    const had = new Set(before.map((value) => JSON.stringify(value)));
    const has = new Set(after.map((value) => JSON.stringify(value)));
    const added = after.filter((value) => !had.has(JSON.stringify(value)));
    const removed = before.filter((value) => !has.has(JSON.stringify(value)));
    if (added.length > 0) this.effect(segments, `enum widened: ${list(added)} added`, { wider: true, narrower: false });
    if (removed.length > 0)
      this.effect(segments, `enum narrowed: ${list(removed)} removed`, { wider: false, narrower: true });
  }

  private properties(a: Json, b: Json, segments: string[]): void {
    const before = isObject(a.properties) ? a.properties : {};
    const after = isObject(b.properties) ? b.properties : {};
    const requiredBefore = new Set(arrayOf(a.required));
    const requiredAfter = new Set(arrayOf(b.required));
    const removed = Object.keys(before).filter((name) => !Object.hasOwn(after, name));
    const added = Object.keys(after).filter((name) => !Object.hasOwn(before, name));
    const closed = b.additionalProperties === false;
    // A removed field whose schema an added one has, written the same: renamed. Added fields by their schema's JSON.
    const unclaimed = new Map<string, string[]>();
    for (const name of added) {
      const key = JSON.stringify(after[name]) ?? '';
      const names = unclaimed.get(key);
      if (names === undefined) unclaimed.set(key, [name]);
      else names.push(name);
    }
    const renamed = new Map<string, string>();
    const renamedTo = new Map<string, string>();
    for (const name of removed) {
      const twin = unclaimed.get(JSON.stringify(before[name]) ?? '')?.shift();
      if (twin === undefined) continue;
      renamed.set(twin, name);
      renamedTo.set(name, twin);
    }
    for (const name of removed) {
      const twin = renamedTo.get(name);
      const at = [...segments, name];
      if (this.part === 'response') this.add(at, twin === undefined ? 'removed' : `renamed to ${twin}`, true);
      else if (twin !== undefined) this.add(at, `renamed to ${twin}`, closed || requiredAfter.has(twin));
      else this.add(at, closed ? 'removed: now refused' : 'removed: now ignored', closed);
    }
    for (const name of added) {
      if (renamed.has(name)) continue;
      const required = requiredAfter.has(name);
      this.add(
        [...segments, name],
        required ? 'added, required' : 'added, optional',
        this.part === 'request' && required,
      );
    }
    for (const name of Object.keys(before).filter((candidate) => Object.hasOwn(after, candidate))) {
      const at = [...segments, name];
      if (requiredBefore.has(name) && !requiredAfter.has(name))
        this.effect(at, 'made optional', { wider: true, narrower: false });
      if (!requiredBefore.has(name) && requiredAfter.has(name))
        this.effect(at, 'made required', { wider: false, narrower: true });
      this.compare(before[name], after[name], at);
    }
  }

  /** additionalProperties: closing an object refuses fields a client may send; a reader ignores unknown fields. */
  private extraProperties(a: Json, b: Json, segments: string[]): void {
    const before = a.additionalProperties;
    const after = b.additionalProperties;
    if (before !== false && after === false && this.part === 'request')
      this.add(segments, 'closed: fields beyond the documented ones now refused', true);
    if (isObject(before) && isObject(after)) this.compare(before, after, [...segments, '*']);
  }

  /** anyOf and oneOf alternatives, in order: one more lets more through, one fewer less. */
  /**
   * Each alternative of the new list paired with one of the old: the same content first (order is no change: FastAPI
   * and pydantic reorder union members freely), then the same `$ref`, then the same title, then the one left in the
   * same position; the pairs compared, the rest added or removed.
   */
  private pairedAlternatives(before: unknown[], after: unknown[]): Array<[number, number]> {
    const left = new Set(before.keys());
    const pairs: Array<[number, number]> = [];
    const unpaired = new Set(after.keys());
    const keys: Array<(side: Side, value: unknown) => string | undefined> = [
      (side, value) => canonical(side.node(value)),
      (_side, value) => (isObject(value) && typeof value.$ref === 'string' ? value.$ref : undefined),
      (side, value) => {
        const title = side.node(value).title;
        return typeof title === 'string' ? title : undefined;
      },
    ];
    for (const key of keys)
      for (const index of [...unpaired]) {
        const wanted = key(this.next, after[index]);
        if (wanted === undefined) continue;
        const match = [...left].find((candidate) => key(this.old, before[candidate]) === wanted);
        if (match === undefined) continue;
        pairs.push([match, index]);
        left.delete(match);
        unpaired.delete(index);
      }
    for (const index of [...unpaired])
      if (left.has(index)) {
        pairs.push([index, index]);
        left.delete(index);
        unpaired.delete(index);
      }
    return pairs.sort((x, y) => x[1] - y[1]);
  }

  private alternatives(a: Json, b: Json, segments: string[]): void {
    for (const keyword of ['anyOf', 'oneOf'] as const) {
      const before = Array.isArray(a[keyword]) ? (a[keyword] as unknown[]) : [];
      const after = Array.isArray(b[keyword]) ? (b[keyword] as unknown[]) : [];
      if (before.length === 0 && after.length === 0) continue;
      for (const [from, to] of this.pairedAlternatives(before, after))
        this.compare(before[from], after[to], [...segments, `(${keyword} ${to + 1})`]);
      if (after.length > before.length)
        this.effect(segments, `${after.length - before.length} ${keyword} alternative(s) added`, {
          wider: true,
          narrower: false,
        });
      if (before.length > after.length)
        this.effect(segments, `${before.length - after.length} ${keyword} alternative(s) removed`, {
          wider: false,
          narrower: true,
        });
    }
  }
}
