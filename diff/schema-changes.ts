import { OpenApiDocument } from './document.js';
import { isJsonObject as isObject } from '../schemas/json-object.js';

/** Which side of the exchange a schema describes: the client writes a request and reads a response. */
export type Part = 'request' | 'response';

/** One change of a schema, at a field path below the schema's root (`status`, `value`; `[]` for an array's items). */
export interface SchemaChange {
  segments: string[];
  change: string;
  breaking: boolean;
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

const scalarKeys = ['format', 'pattern'] as const;
const upperBounds = ['maximum', 'exclusiveMaximum', 'maxLength', 'maxItems', 'maxProperties'] as const;
const lowerBounds = ['minimum', 'exclusiveMinimum', 'minLength', 'minItems', 'minProperties'] as const;

function typesOf(schema: Json): { types: Set<string> | undefined; nullable: boolean } {
  const raw = schema.type;
  const listed = typeof raw === 'string' ? [raw] : Array.isArray(raw) ? raw.filter((t) => typeof t === 'string') : [];
  const nullable = schema.nullable === true || listed.includes('null') || (schema.enum as unknown[])?.includes(null);
  const types = listed.filter((type) => type !== 'null');
  return { types: types.length > 0 ? new Set(types) : undefined, nullable: nullable === true };
}

/** Whether a value of `type` is always a value of one of `types` (an integer is a number). */
function covered(type: string, types: Set<string>): boolean {
  return types.has(type) || (type === 'integer' && types.has('number'));
}

function list(values: Iterable<unknown>): string {
  return [...values].map((value) => (typeof value === 'string' ? value : JSON.stringify(value))).join(', ');
}

function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * Compares two versions of a schema, each in its own document, field by field, and words each change with whether
 * it breaks a client on this part of the exchange. `$ref`s are followed; a pair of references already being compared
 * further up the same descent (a recursive schema) is not compared again.
 */
export class SchemaComparison {
  readonly changes: SchemaChange[] = [];
  private readonly descent: string[] = [];

  constructor(
    private readonly before: OpenApiDocument,
    private readonly after: OpenApiDocument,
    private readonly part: Part,
  ) {}

  compare(old: unknown, next: unknown, segments: string[] = []): void {
    const key = `${OpenApiDocument.refOf(old) ?? ''}|${OpenApiDocument.refOf(next) ?? ''}`;
    if (key !== '|' && this.descent.includes(key)) return;
    this.descent.push(key);
    try {
      const a = this.shape(this.before, old);
      const b = this.shape(this.after, next);
      this.nullability(a, b, segments);
      this.types(a, b, segments);
      this.keywords(a.schema, b.schema, segments);
      this.enums(a.schema, b.schema, segments);
      this.properties(a.schema, b.schema, segments);
      this.extraProperties(a.schema, b.schema, segments);
      if (a.schema.items !== undefined || b.schema.items !== undefined)
        this.compare(a.schema.items ?? {}, b.schema.items ?? {}, [...segments, '[]']);
      this.alternatives(a.schema, b.schema, segments);
    } finally {
      this.descent.pop();
    }
  }

  private add(segments: string[], change: string, breaking: boolean): void {
    this.changes.push({ segments, change, breaking });
  }

  private effect(segments: string[], change: string, effect: Effect): void {
    this.add(segments, change, breaks(this.part, effect));
  }

  /** The schema resolved, allOf merged, and `anyOf: [T, {type: null}]` read as T nullable. */
  private shape(document: OpenApiDocument, value: unknown): Shape {
    const resolved = document.resolve(value);
    let schema: Json = isObject(resolved) ? { ...resolved } : {};
    if (Array.isArray(schema.allOf)) {
      const merged: Json = { ...schema, allOf: undefined, properties: { ...(schema.properties as Json) } };
      const required = new Set<unknown>((schema.required as unknown[]) ?? []);
      for (const member of schema.allOf) {
        const part = this.shape(document, member).schema;
        Object.assign(merged.properties as Json, part.properties);
        for (const name of (part.required as unknown[]) ?? []) required.add(name);
        for (const [keyword, keywordValue] of Object.entries(part))
          if (!(keyword in merged) || merged[keyword] === undefined) merged[keyword] = keywordValue;
      }
      merged.required = [...required];
      schema = merged;
    }
    const { types, nullable } = typesOf(schema);
    for (const keyword of ['anyOf', 'oneOf'] as const) {
      const options = schema[keyword];
      if (!Array.isArray(options)) continue;
      const isNull = (option: unknown) => {
        const shown = document.resolve(option);
        return isObject(shown) && (shown.type === 'null' || same(shown.enum, [null]));
      };
      const rest = options.filter((option) => !isNull(option));
      if (rest.length === options.length) continue;
      if (rest.length === 1) {
        const inner = this.shape(document, rest[0]);
        return { ...inner, nullable: true };
      }
      return { schema: { ...schema, [keyword]: rest }, types, nullable: true };
    }
    return { schema, types, nullable };
  }

  private nullability(a: Shape, b: Shape, segments: string[]): void {
    if (!a.nullable && b.nullable) this.effect(segments, 'made nullable', { wider: true, narrower: false });
    if (a.nullable && !b.nullable) this.effect(segments, 'no longer nullable', { wider: false, narrower: true });
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
    if (wider || narrower) this.effect(segments, `type ${list(before)} → ${list(after)}`, { wider, narrower });
  }

  /** format and pattern: any change between two values is both ways (date-time → date breaks readers and writers). */
  private keywords(a: Json, b: Json, segments: string[]): void {
    for (const keyword of scalarKeys) {
      const before = a[keyword];
      const after = b[keyword];
      if (same(before, after)) continue;
      const change =
        before === undefined
          ? `${keyword} ${String(after)} added`
          : after === undefined
            ? `${keyword} ${String(before)} removed`
            : `${keyword} ${String(before)} → ${String(after)}`;
      // Added: fewer strings pass. Removed: more do. Changed: each side has strings the other refuses.
      this.effect(segments, change, { wider: before !== undefined, narrower: after !== undefined });
    }
    for (const [keywords, tighter] of [
      [upperBounds, (x: number, y: number) => y < x],
      [lowerBounds, (x: number, y: number) => y > x],
    ] as const)
      for (const keyword of keywords) {
        const before = typeof a[keyword] === 'number' ? a[keyword] : undefined;
        const after = typeof b[keyword] === 'number' ? b[keyword] : undefined;
        if (before === after) continue;
        const narrower = after !== undefined && (before === undefined || tighter(before, after));
        const change = `${keyword} ${before ?? 'none'} → ${after ?? 'none'}`;
        this.effect(segments, change, { wider: !narrower, narrower });
      }
  }

  private enums(a: Json, b: Json, segments: string[]): void {
    const values = (schema: Json) =>
      Array.isArray(schema.enum)
        ? schema.enum.filter((value) => value !== null)
        : 'const' in schema
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
    const added = after.filter((value) => !before.some((old) => same(old, value)));
    const removed = before.filter((value) => !after.some((next) => same(next, value)));
    if (added.length > 0) this.effect(segments, `enum widened: ${list(added)} added`, { wider: true, narrower: false });
    if (removed.length > 0)
      this.effect(segments, `enum narrowed: ${list(removed)} removed`, { wider: false, narrower: true });
  }

  private properties(a: Json, b: Json, segments: string[]): void {
    const before = isObject(a.properties) ? a.properties : {};
    const after = isObject(b.properties) ? b.properties : {};
    const requiredBefore = new Set((a.required as unknown[]) ?? []);
    const requiredAfter = new Set((b.required as unknown[]) ?? []);
    const removed = Object.keys(before).filter((name) => !Object.hasOwn(after, name));
    const added = Object.keys(after).filter((name) => !Object.hasOwn(before, name));
    const closed = b.additionalProperties === false;
    const renamed = new Map<string, string>();
    for (const name of removed) {
      const twin = added.find((candidate) => !renamed.has(candidate) && same(before[name], after[candidate]));
      if (twin !== undefined) renamed.set(twin, name);
    }
    for (const name of removed) {
      const twin = [...renamed].find(([, old]) => old === name)?.[0];
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
  private alternatives(a: Json, b: Json, segments: string[]): void {
    for (const keyword of ['anyOf', 'oneOf'] as const) {
      const before = Array.isArray(a[keyword]) ? (a[keyword] as unknown[]) : [];
      const after = Array.isArray(b[keyword]) ? (b[keyword] as unknown[]) : [];
      if (before.length === 0 && after.length === 0) continue;
      const shared = Math.min(before.length, after.length);
      for (let index = 0; index < shared; index++)
        this.compare(before[index], after[index], [...segments, `(${keyword} ${index + 1})`]);
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
