import { Ajv2020 } from 'ajv/dist/2020.js';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { removeTempDirs } from '../helpers/temp-dirs.js';
import { limitFor, runs } from '../properties/runs.js';
import { ourDocument, schemasOf, writeDocuments, type Json } from './documents.js';

afterAll(removeTempDirs);

/**
 * Every claim `diff` makes about a response field is checked against the values the two schemas let through: a
 * breaking claim (the server may now send what a client refused) has a value the new schema allows and the old one
 * refused; a claim that is no break has one the other way; and where the two allow the same values, nothing breaks.
 * Judged over a universe of witness values, each schema by ajv, independently of diff's own reading.
 */
const witnesses: unknown[] = [null, 0, 1, -1, 1.5, 10, '', 'a', 'abc', true, false, [], [1], {}, { a: 1 }];

const ajv = new Ajv2020({ strict: false, allErrors: false });

function allowed(schema: Json): boolean[] {
  const validate = ajv.compile(schema);
  return witnesses.map((value) => validate(value) === true);
}

const types = ['string', 'integer', 'number', 'boolean', 'null', 'array', 'object'] as const;

/**
 * Field schemas as FastAPI and hand-written documents spell a value's type and its null: typed, untyped (`{}`, a title
 * alone), several types, a union with null. Enums and bounds beside them are left out: diff judges those keyword by
 * keyword, not by the values they let through together (`{"enum": [1]}` for `{"type": "integer", "minimum": 0}` is
 * claimed as a removed minimum), which issue 41 takes on.
 */
const fieldSchema: fc.Arbitrary<Json> = fc.letrec((tie) => ({
  schema: fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...types).map((type) => ({ type })) },
    { weight: 1, arbitrary: fc.constant({}) },
    { weight: 1, arbitrary: fc.constant({ title: 'Value' }) },
    {
      weight: 2,
      arbitrary: fc.uniqueArray(fc.constantFrom(...types), { minLength: 2, maxLength: 3 }).map((type) => ({ type })),
    },
    { weight: 2, arbitrary: tie('plain').map((inner) => ({ anyOf: [inner, { type: 'null' }] })) },
  ),
  plain: fc.oneof(
    fc.constantFrom(...types.filter((type) => type !== 'null')).map((type) => ({ type })),
    fc.constant({}),
  ),
})).schema;

/** Our document with HumanEvaluation.testset_name (a field only the fetch answers) holding this schema. */
function withField(schema: Json): string {
  const document = ourDocument();
  const human = schemasOf(document).HumanEvaluation as { properties: Record<string, Json> };
  human.properties.testset_name = schema;
  return JSON.stringify(document);
}

interface Claim {
  field: string;
  change: string;
  breaking: boolean;
}

const pairs = 60;

describe('property: every claim diff makes about a response field holds for the values each side allows', () => {
  it(
    `${pairs} pairs of field schemas`,
    async () => {
      await fc.assert(
        fc.asyncProperty(fieldSchema, fieldSchema, async (before, after) => {
          const { oldFile, newFile } = await writeDocuments(
            { name: 'old.json', text: withField(before) },
            { name: 'new.json', text: withField(after) },
          );
          const run = await runCli(['diff', oldFile, newFile, '--format', 'json']);
          expect([0, 1], run.stderr).toContain(run.code);
          const claims = (JSON.parse(run.stdout) as { changes: Claim[] }).changes.filter(
            (claim) => claim.field === 'body.testset_name',
          );
          const old = allowed(before);
          const next = allowed(after);
          const wider = witnesses.filter((_, index) => next[index] && !old[index]);
          const narrower = witnesses.filter((_, index) => old[index] && !next[index]);
          const said = claims.map((claim) => `${claim.breaking ? 'BREAKING' : 'ok'} ${claim.change}`).join('; ');
          const context = `${JSON.stringify(before)} -> ${JSON.stringify(after)}: ${said}`;
          // The same values both ways is a rewrite, not a change: nothing is claimed.
          if (wider.length === 0 && narrower.length === 0) expect(claims, context).toEqual([]);
          for (const claim of claims)
            if (claim.breaking)
              expect(wider.length, `${context} (no value the old refused is let through)`).toBeGreaterThan(0);
          // A value the server may now send that a client refused is always named.
          if (wider.length > 0)
            expect(
              claims.some((claim) => claim.breaking),
              `${context} ${JSON.stringify(wider)}`,
            ).toBe(true);
        }),
        runs(pairs),
      );
    },
    limitFor(pairs, 300),
  );
});
