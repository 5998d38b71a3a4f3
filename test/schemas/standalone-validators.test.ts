import { readFile } from 'node:fs/promises';
import { Ajv2020 } from 'ajv/dist/2020.js';
import formatsPlugin from 'ajv-formats';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { generators, profiles } from '../../generators/index.js';
import { invalidCases } from '../../generators/invalid.js';
import { resourceNames, schemaFor, schemaId, schemaNames, type SchemaName } from '../../schemas/index.js';
import { personalKeywordDefinition } from '../../schemas/personal.js';
import { isRfc3339DateTime } from '../../schemas/validators/date-time.js';
import { validatorFor } from '../../schemas/validators/index.js';
import { pointerTokens } from '../../schemas/validators/json-pointer.js';
import { standaloneValidatorsSource } from '../../scripts/standalone-validators.js';

/** ajv-formats is CommonJS; under NodeNext its default export arrives either bare or wrapped. */
const addFormats = ((formatsPlugin as unknown as { default?: typeof formatsPlugin }).default ??
  formatsPlugin) as unknown as (ajv: Ajv2020) => Ajv2020;

/** The validators as they were compiled at run time before compiled.ts: the reference the compiled ones must match. */
const reference = new Ajv2020({ strict: true, allErrors: true, allowUnionTypes: true });
addFormats(reference);
reference.addFormat('date-time', { type: 'string', validate: isRfc3339DateTime });
reference.addKeyword(personalKeywordDefinition);
for (const name of schemaNames) reference.addSchema(schemaFor(name));

/** What a validator says of a value: valid or not, and every error object (path, keyword, params, message). */
function verdict(check: (data: unknown) => boolean, errors: () => unknown, data: unknown) {
  const valid = check(data);
  return { valid, errors: errors() ?? null };
}

function expectSameVerdict(name: SchemaName, data: unknown): void {
  const compiled = validatorFor(name);
  const runtime = reference.getSchema(schemaId(name))!;
  expect(
    verdict(compiled, () => compiled.errors, data),
    name,
  ).toEqual(verdict(runtime, () => runtime.errors, data));
}

/** `data` with the value at `pointer` replaced (or added, one level below an object). */
function replacedAt(data: unknown, pointer: string, value: unknown): unknown {
  const copy = structuredClone(data);
  const tokens = pointerTokens(pointer);
  const last = tokens.pop();
  let node: unknown = copy;
  for (const token of tokens) node = (node as Record<string, unknown>)[token];
  if (last === undefined || !node || typeof node !== 'object') return value;
  (node as Record<string, unknown>)[last] = value;
  return copy;
}

/** The pointers of every value inside a JSON document, the root included. */
function pointersOf(data: unknown, at = ''): string[] {
  if (!data || typeof data !== 'object') return [at];
  const entries = Object.entries(data as Record<string, unknown>);
  return [
    at,
    ...entries.flatMap(([key, value]) => pointersOf(value, `${at}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`)),
  ];
}

/** Values a client or a server gets wrong: date-times in near forms, numbers as strings, nulls, deep and odd JSON. */
const hostileValue = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  fc.date({ noInvalidDate: true }).map((date) => date.toISOString()),
  fc
    .tuple(fc.date({ noInvalidDate: true }), fc.constantFrom(' ', 'T', 't'), fc.constantFrom('', 'z', '+0000', '+00'))
    .map(([date, separator, offset]) => date.toISOString().replace('T', separator).replace('Z', offset)),
  fc.constantFrom(null, '', '2024-02-30T10:11:12Z', '2016-12-31T23:59:60Z', '10', 10.5, [], {}, '__proto__'),
);

const generated = fc
  .tuple(fc.constantFrom(...resourceNames), fc.integer(), fc.constantFrom(...profiles))
  .map(([name, seed, profile]) => ({ name, data: generators[name](seed, { profile }) as unknown }));

const settings = { seed: 20261127, numRuns: 200 };

describe('the standalone validators (compiled.ts)', () => {
  it('are exactly what schemas/ compile to (`npm run validators` after changing a schema)', async () => {
    const committed = await readFile(new URL('../../schemas/validators/compiled.ts', import.meta.url), 'utf8');
    expect(committed).toBe(standaloneValidatorsSource());
  });

  it('hold no code built at run time (new Function, eval)', async () => {
    const committed = await readFile(new URL('../../schemas/validators/compiled.ts', import.meta.url), 'utf8');
    expect(committed).not.toMatch(/\bnew Function\b|\beval\(|\brequire\(/);
  });

  it("give ajv's run-time verdict and errors with each value of a generated instance replaced", () => {
    const wrong = [null, 7, 'x', {}, [], '2024-07-10 12:34:56+00:00'];
    for (const name of resourceNames)
      for (const profile of profiles) {
        const data = generators[name](1, { profile }) as unknown;
        for (const pointer of pointersOf(data))
          for (const value of wrong) expectSameVerdict(name, replacedAt(data, pointer, value));
      }
  });

  it("give ajv's run-time verdict and errors for generated instances with one value replaced", () => {
    fc.assert(
      fc.property(generated, fc.nat(), hostileValue, ({ name, data }, index, value) => {
        const pointers = pointersOf(data);
        expectSameVerdict(name, replacedAt(data, pointers[index % pointers.length]!, value));
      }),
      settings,
    );
  });

  it('give the same verdict and errors for every invalid case of generated instances', () => {
    fc.assert(
      fc.property(generated, fc.nat(), ({ name, data }, index) => {
        const cases = invalidCases(name, data);
        if (cases.length > 0) expectSameVerdict(name, cases[index % cases.length]!.body);
      }),
      { ...settings, numRuns: 50 },
    );
  });

  it('give the same verdict and errors for any JSON value, under every schema (error bodies included)', () => {
    fc.assert(
      fc.property(fc.constantFrom(...schemaNames), fc.jsonValue({ maxDepth: 4 }), (name, value) =>
        expectSameVerdict(name, value),
      ),
      settings,
    );
  });
});
