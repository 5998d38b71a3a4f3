import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { removeTempDirs } from '../helpers/temp-dirs.js';
import { diffTexts, engineErrors, ourDocument, schemasOf, type Json } from './documents.js';
import { limitFor, runs } from '../properties/runs.js';

afterAll(removeTempDirs);

/** Rendered once: each run copies it. */
const ours = ourDocument();

const editRuns = 40;

/** Names a JSON pointer must escape (`~`, `/`, `%`), names every JavaScript object inherits, and other text. */
const oddName = fc.oneof(
  fc.constantFrom('__proto__', 'constructor', 'toString', 'hasOwnProperty', 'a/b', 'x~y', '~1', '%25', '%E0'),
  fc.constantFrom('é☃', 'line\nbreak', '', ' ', '0', '-1', 'length', '$ref'),
  fc.string({ maxLength: 6 }),
);

/** A key set as an own property whatever its name (`__proto__` too, as JSON.parse makes it). */
function put(target: Json, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

/** A `$ref` to a component schema of this name, escaped as RFC 6901 and a URI fragment say. */
const refTo = (name: string) =>
  `#/components/schemas/${encodeURIComponent(name.replace(/~/g, '~0').replace(/\//g, '~1'))}`;

/** Every (object, key) holding an object below `components.schemas`: the places an edit lands. */
function slots(document: Json): Array<{ holder: Json; key: string }> {
  const found: Array<{ holder: Json; key: string }> = [];
  const stack: Json[] = [schemasOf(document)];
  while (stack.length > 0 && found.length < 5_000) {
    const holder = stack.pop() as Json;
    for (const [key, value] of Object.entries(holder))
      if (typeof value === 'object' && value !== null) {
        found.push({ holder, key });
        stack.push(value as Json);
      }
  }
  return found;
}

/** What may be done to a document; `at` picks among its slots, schemas or `$ref`s, modulo their number. */
const edit = fc.oneof(
  fc.record({
    kind: fc.constant('rewire' as const),
    at: fc.nat(),
    target: fc.oneof(
      fc.nat().map((index) => ({ schema: index })),
      oddName.map((name) => ({ ref: refTo(name) })),
      fc.constantFrom('#/__proto__', '#/components/schemas/HumanEvaluation/required/0', '#', '#/', 'x.json#/a'),
      fc.string({ maxLength: 8 }).map((text) => `#/${text}`),
    ),
  }),
  fc.record({
    kind: fc.constant('wrap' as const),
    at: fc.nat(),
    keyword: fc.constantFrom('allOf', 'anyOf', 'oneOf'),
    withNull: fc.boolean(),
    withSelf: fc.boolean(),
  }),
  fc.record({ kind: fc.constant('cycle' as const), from: fc.nat(), to: fc.nat(), field: oddName, items: fc.boolean() }),
  fc.record({ kind: fc.constant('name' as const), at: fc.nat(), name: oddName, required: fc.boolean() }),
  fc.record({
    kind: fc.constant('deep' as const),
    at: fc.nat(),
    depth: fc.oneof(fc.integer({ min: 1, max: 40 }), fc.constant(600)),
  }),
  fc.record({ kind: fc.constant('drop' as const), at: fc.nat() }),
  fc.record({
    kind: fc.constant('retype' as const),
    at: fc.nat(),
    to: fc.constantFrom<unknown>('string', 'integer', ['string', 'null'], 'null', 7, null, { toString: 1 }, []),
  }),
);
type Edit = typeof edit extends fc.Arbitrary<infer T> ? T : never;

function apply(document: Json, change: Edit): void {
  const schemas = schemasOf(document);
  const names = Object.keys(schemas);
  const places = slots(document);
  const pick = <T>(list: T[], index: number): T | undefined => list[index % Math.max(1, list.length)];
  const slot = pick(places, 'at' in change ? change.at : 0);
  switch (change.kind) {
    case 'rewire': {
      const refs = places.filter(({ holder, key }) => typeof (holder[key] as Json).$ref === 'string');
      const holder = pick(refs, change.at);
      if (holder === undefined) return;
      const { target } = change;
      (holder.holder[holder.key] as Json).$ref =
        typeof target === 'string' ? target : 'ref' in target ? target.ref : refTo(pick(names, target.schema) ?? '');
      return;
    }
    case 'wrap': {
      if (slot === undefined) return;
      const self = Object.hasOwn(schemas, slot.key) && slot.holder === schemas ? [{ $ref: refTo(slot.key) }] : [];
      const members = [slot.holder[slot.key], ...(change.withNull ? [{ type: 'null' }] : [])];
      put(slot.holder, slot.key, { [change.keyword]: [...members, ...(change.withSelf ? self : [])] });
      return;
    }
    case 'cycle': {
      const from = schemas[pick(names, change.from) ?? ''];
      if (typeof from !== 'object' || from === null) return;
      if (typeof from.properties !== 'object' || from.properties === null) from.properties = {};
      const ref = { $ref: refTo(pick(names, change.to) ?? '') };
      put(from.properties as Json, change.field, change.items ? { type: 'array', items: ref } : ref);
      return;
    }
    case 'name': {
      const copied = schemas[pick(names, change.at) ?? ''];
      put(schemas, change.name, JSON.parse(JSON.stringify(copied ?? {})) as unknown);
      const human = schemas.HumanEvaluation as Json;
      if (typeof human.properties === 'object' && human.properties !== null)
        put(human.properties as Json, change.name, { $ref: refTo(change.name) });
      if (change.required && Array.isArray(human.required)) human.required.push(change.name);
      return;
    }
    case 'deep': {
      if (slot === undefined) return;
      let schema: Json = { type: 'string' };
      for (let level = 0; level < change.depth; level++) schema = { type: 'object', properties: { a: schema } };
      put(slot.holder, slot.key, schema);
      return;
    }
    case 'drop':
      if (slot !== undefined) delete slot.holder[slot.key];
      return;
    case 'retype':
      if (slot !== undefined) (slot.holder[slot.key] as Json).type = change.to;
      return;
  }
}

/**
 * A document from ours (or a base) with these edits made, in JSON, or YAML when asked: in block style when shallow
 * enough for the YAML writer, or in flow style, which JSON's text is (YAML 1.2 holds JSON), marked as YAML.
 */
function written(edits: Edit[], yaml: 'block' | 'flow' | undefined, base: Json = ours) {
  const document = JSON.parse(JSON.stringify(base)) as Json;
  for (const change of edits) apply(document, change);
  const json = { document, text: JSON.stringify(document), name: 'doc.json' };
  if (!yaml) return json;
  // The YAML writer's flow style costs it time that grows with the square of the depth.
  if (yaml === 'flow') return { document, text: `---\n${json.text}`, name: 'doc.yaml' };
  try {
    return { document, text: stringify(document, { aliasDuplicateObjects: false }), name: 'doc.yaml' };
  } catch {
    // The YAML writer recurses: a 600-level edit is written as JSON, which evalkit reads alike.
    return json;
  }
}

describe('evalkit diff on random edits of evalkit’s own document', () => {
  it(
    'ends with exit 0 or 1 and a report, or exit 2 and one line naming the file: never an engine error',
    async () => {
      const codes = new Set<number>();
      await fc.assert(
        fc.asyncProperty(
          fc.array(edit, { maxLength: 3 }),
          fc.array(edit, { minLength: 1, maxLength: 3 }),
          // Which document is written as YAML, if any (a third of the runs), and in which style: YAML is read
          // alike, and written and parsed dozens of times slower than JSON.
          fc.constantFrom<'old' | 'new' | 'neither'>('old', 'new', 'neither', 'neither', 'neither', 'neither'),
          fc.constantFrom<'block' | 'flow'>('block', 'flow'),
          async (oldEdits, newEdits, yaml, style) => {
            const old = written(oldEdits, yaml === 'old' ? style : undefined);
            const next = written(newEdits, yaml === 'new' ? style : undefined, old.document);
            const run = await diffTexts(old, next);
            codes.add(run.code);
            expect([0, 1, 2]).toContain(run.code);
            if (run.code === 2) {
              expect(run.stderr).toMatch(/^evalkit diff: [^\n]*\n$/);
              const named = [run.oldFile, run.newFile].some((file) => run.stderr.startsWith(`evalkit diff: ${file}: `));
              expect(named, run.stderr).toBe(true);
              expect(run.stderr).not.toMatch(engineErrors);
            } else {
              expect(run.stderr).toBe('');
              expect(run.stdout).toMatch(/(breaking change|no change to the two operations)[^\n]*\n$/);
            }
          },
        ),
        runs(editRuns),
      );
      // The edits reach each answer: no change or a safe one, a breaking one, a refused document.
      expect([...codes].sort()).toEqual([0, 1, 2]);
      // A hang limit that grows with the search asked for (a run takes some 30 ms; a loaded machine five times that).
    },
    limitFor(editRuns, 100),
  );
});

/** A keyword's value that lets every value through, as the keyword's spec says: the oracle of the next property. */
function constrainsNothing(keyword: string, value: unknown): boolean {
  if (['minLength', 'minItems', 'minProperties'].includes(keyword)) return typeof value === 'number' && value <= 0;
  if (keyword === 'uniqueItems') return value === false;
  if (keyword === 'propertyNames')
    return JSON.stringify(value) === '{}' || JSON.stringify(value) === '{"type":"string"}';
  return ['description', 'title', 'examples', 'deprecated', '$comment'].includes(keyword) || keyword.startsWith('x-');
}

describe('evalkit diff on one keyword added to a request field', () => {
  const keyword = fc.oneof(
    fc.constantFrom('minLength', 'minItems', 'minProperties', 'maxLength', 'maxItems', 'minimum', 'maximum'),
    fc.constantFrom('uniqueItems', 'multipleOf', 'propertyNames', 'pattern', 'format', 'enum', 'const'),
    fc.constantFrom('not', 'if', 'then', 'patternProperties', 'dependentRequired', 'prefixItems', 'contains'),
    fc.constantFrom('description', 'title', 'examples', 'deprecated', '$comment', 'x-internal'),
    fc.string({ minLength: 1, maxLength: 8 }),
  );
  const value = fc.oneof(
    fc.integer({ min: -2, max: 5 }),
    fc.boolean(),
    fc.constantFrom({}, { type: 'string' }, { enum: ['a'] }, ['a'], 'a+', 'date'),
  );
  const fields = ['evaluators_configs', 'lm_providers_keys', 'testset_id', 'rate_limit'];

  it('a keyword that constrains nothing is no change; any other is listed, never passed over', async () => {
    await fc.assert(
      fc.asyncProperty(keyword, value, fc.constantFrom(...fields), async (name, given, field) => {
        fc.pre(name !== '$ref' && name !== 'allOf' && name !== 'anyOf' && name !== 'oneOf');
        const next = structuredClone(ours);
        const schema = (schemasOf(next).CreateEvaluationRequest?.properties as Record<string, Json>)[field] as Json;
        fc.pre(!Object.hasOwn(schema, name));
        Object.defineProperty(schema, name, { value: given, enumerable: true, writable: true, configurable: true });
        const old = { name: 'old.json', text: JSON.stringify(ours) };
        const run = await diffTexts(old, { name: 'new.json', text: JSON.stringify(next) });
        expect(run.stderr).toBe('');
        if (constrainsNothing(name, given)) expect(run.stdout).toContain('no change to the two operations');
        else
          expect(run.stdout, `${name}: ${JSON.stringify(given)}`).toMatch(/^ {2}(BREAKING|ok) {2}request {2}body\./m);
      }),
      runs(120),
    );
  }, 60_000);
});
