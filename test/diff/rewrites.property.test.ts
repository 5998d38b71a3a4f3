import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { removeTempDirs } from '../helpers/temp-dirs.js';
import { limitFor, runs } from '../properties/runs.js';
import { ourDocument, schemasOf, writeDocuments, type Json } from './documents.js';

afterAll(removeTempDirs);

interface Reported {
  breaking: number;
  changes: Array<{ field: string; change: string; breaking: boolean }>;
}

/** evalkit diff on two documents, its JSON report read back. */
async function diffOf(old: Json, next: Json): Promise<{ code: number; report: Reported }> {
  const { oldFile, newFile } = await writeDocuments(
    { name: 'old.json', text: JSON.stringify(old) },
    { name: 'new.json', text: JSON.stringify(next) },
  );
  const run = await runCli(['diff', oldFile, newFile, '--format', 'json']);
  return { code: run.code, report: JSON.parse(run.stdout) as Reported };
}

const refPrefix = '#/components/schemas/';

/** Every object holding a `$ref` to a component, in document order, below `from`. */
function refHolders(from: unknown): Json[] {
  const found: Json[] = [];
  const stack: unknown[] = [from];
  while (stack.length > 0) {
    const node = stack.pop();
    if (Array.isArray(node)) stack.push(...node);
    else if (node !== null && typeof node === 'object') {
      const object = node as Json;
      if (typeof object.$ref === 'string' && object.$ref.startsWith(refPrefix)) found.push(object);
      stack.push(...Object.values(object));
    }
  }
  return found;
}

/** Meaning-preserving rewrites of a document, as generators and hand edits make them. */
type Rewrite =
  | { kind: 'inline'; at: number }
  | { kind: 'extract'; at: number }
  | { kind: 'rename'; at: number }
  | { kind: 'reorder'; at: number };

const rewrite: fc.Arbitrary<Rewrite> = fc.record({
  kind: fc.constantFrom('inline', 'extract', 'rename', 'reorder'),
  at: fc.nat(),
}) as fc.Arbitrary<Rewrite>;

/** The property schemas of every component: the places an inline schema can be extracted from. */
function propertySlots(document: Json): Array<{ holder: Json; key: string }> {
  const slots: Array<{ holder: Json; key: string }> = [];
  for (const schema of Object.values(schemasOf(document)))
    if (schema && typeof schema.properties === 'object')
      for (const key of Object.keys(schema.properties as Json)) slots.push({ holder: schema.properties as Json, key });
  return slots;
}

function apply(document: Json, change: Rewrite, serial: number): void {
  const schemas = schemasOf(document);
  if (change.kind === 'inline') {
    // A $ref replaced by a copy of what it names (its own $refs kept).
    const holders = refHolders(document.paths).concat(refHolders(schemas));
    const holder = holders[change.at % holders.length];
    if (!holder) return;
    const name = decodeURIComponent(String(holder.$ref).slice(refPrefix.length));
    const target = structuredClone(schemas[name]);
    delete holder.$ref;
    Object.assign(holder, target);
  } else if (change.kind === 'extract') {
    // An inline property schema moved into a component of its own and referred to.
    const slots = propertySlots(document).filter(({ holder, key }) => !('$ref' in (holder[key] as Json)));
    const slot = slots[change.at % Math.max(slots.length, 1)];
    if (!slot) return;
    const name = `Extracted${serial}`;
    schemas[name] = slot.holder[slot.key] as Json;
    slot.holder[slot.key] = { $ref: `${refPrefix}${name}` };
  } else if (change.kind === 'rename') {
    // A component renamed, every reference with it.
    const names = Object.keys(schemas);
    const name = names[change.at % names.length] as string;
    const renamed = `${name}Renamed${serial}`;
    schemas[renamed] = schemas[name] as Json;
    delete schemas[name];
    for (const holder of refHolders(document))
      if (holder.$ref === `${refPrefix}${name}`) holder.$ref = `${refPrefix}${renamed}`;
  } else {
    // A component's properties, and any anyOf, in another order.
    const names = Object.keys(schemas);
    const schema = schemas[names[change.at % names.length] as string] as Json;
    if (schema.properties && typeof schema.properties === 'object')
      schema.properties = Object.fromEntries(Object.entries(schema.properties as Json).reverse());
    for (const value of Object.values((schema.properties ?? {}) as Json))
      if (value && typeof value === 'object' && Array.isArray((value as Json).anyOf))
        ((value as Json).anyOf as unknown[]).reverse();
  }
}

/** Breaking edits, each a change a client of the two operations feels, and the field it must be named at. */
const breakingEdits: Array<{ name: string; edit: (document: Json) => void; field: RegExp }> = [
  {
    name: 'a response field removed',
    edit: (document) => delete (schemasOf(document).HumanEvaluation?.properties as Json).testset_name,
    field: /^body\.testset_name$/,
  },
  {
    name: 'an optional request field made required',
    edit: (document) =>
      (schemasOf(document).CreateEvaluationRequest?.required as string[]).push('correct_answer_column'),
    field: /^body\.correct_answer_column$/,
  },
  {
    name: 'a response field widened to another type',
    edit: (document) =>
      ((schemasOf(document).HumanEvaluation?.properties as Json).status = { type: ['string', 'integer'] }),
    field: /^body\.status$/,
  },
  {
    name: 'a request bound tightened',
    edit: (document) =>
      ((schemasOf(document).RateLimit?.properties as Json).batch_size = { type: 'integer', maximum: 5 }),
    field: /^body\.rate_limit\.batch_size$/,
  },
  {
    name: 'the call without credentials taken away',
    edit: (document) => (document.security = [{ apiKey: [] }]),
    field: /^operation$/,
  },
];

const rewriteRuns = 150;

describe('property: rewrites that keep the meaning change nothing; breaking edits among them are named', () => {
  it(
    `${rewriteRuns} sequences of inlines, extractions, renames and reorders: no breaking change, renames listed`,
    async () => {
      const ours = ourDocument();
      await fc.assert(
        fc.asyncProperty(fc.array(rewrite, { minLength: 1, maxLength: 4 }), async (rewrites) => {
          const next = structuredClone(ours);
          rewrites.forEach((change, index) => apply(next, change, index));
          const { code, report } = await diffOf(ours, next);
          const claims = report.changes.map((change) => `${change.field}: ${change.change}`);
          expect(
            report.changes.filter((change) => change.breaking),
            claims.join('\n'),
          ).toEqual([]);
          for (const change of report.changes) expect(change.change, claims.join('\n')).toMatch(/renamed to/);
          expect(code).toBe(0);
        }),
        runs(rewriteRuns),
      );
    },
    limitFor(rewriteRuns, 300),
  );

  it(
    'each breaking edit, made beside random rewrites, is named at its field and fails the run',
    async () => {
      const ours = ourDocument();
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom(...breakingEdits),
          fc.array(fc.record({ kind: fc.constantFrom('inline', 'reorder'), at: fc.nat() }), { maxLength: 3 }),
          async ({ name, edit, field }, rewrites) => {
            const next = structuredClone(ours);
            edit(next);
            rewrites.forEach((change, index) => apply(next, change as Rewrite, index));
            const { code, report } = await diffOf(ours, next);
            const breaking = report.changes.filter((change) => change.breaking).map((change) => change.field);
            expect(
              breaking.some((at) => field.test(at)),
              `${name}: ${breaking.join(', ')}`,
            ).toBe(true);
            expect(code).toBe(1);
          },
        ),
        runs(40),
      );
    },
    limitFor(rewriteRuns / 2, 300),
  );
});
