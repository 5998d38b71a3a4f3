import { mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build } from '../../generators/factories.js';
import { profiles } from '../../generators/profile.js';
import { lifecycleStates } from '../../generators/vocabulary.js';
import { bodySchema, mapStrings } from '../../http/personal-values.js';
import { startMockServer, type MockServer } from '../../mock/index.js';
import { validate } from '../../schemas/validators/index.js';
import { runCli, spawnCli } from '../helpers/cli.js';
import { removeTempDirs, tempDir } from '../helpers/temp-dirs.js';
import { limitFor, runs } from '../properties/runs.js';
import type { CreateEvaluationRequest, HumanEvaluation } from '../../schemas/types/resources.js';

/**
 * `evalkit fixtures --from RECORDING --out DIR --pseudonymize` over recorded exchanges built from the factories: a
 * proxy --record folder whose records and requests share ids and names (an app's creates name the variants and test
 * set its fetched records hold), with personal values in queries, headers and a field the spec does not list too.
 */

afterAll(removeTempDirs);

let deployment: MockServer;
let keyFile: string;
beforeAll(async () => {
  deployment = await startMockServer({ port: 0 });
  keyFile = join(tempDir(), 'pseudonym-key');
});
afterAll(() => deployment.close());

const exchanges = fc.record({
  fetches: fc.array(
    fc.record({
      seed: fc.integer({ min: 1, max: 1_000_000 }),
      profile: fc.constantFrom(...profiles),
      state: fc.constantFrom(...lifecycleStates.HumanEvaluation.states),
      sameApp: fc.boolean(),
      extra: fc.boolean(),
    }),
    { minLength: 1, maxLength: 4 },
  ),
  creates: fc.array(fc.record({ seed: fc.integer({ min: 1, max: 1_000_000 }), of: fc.nat() }), { maxLength: 3 }),
  queryCarries: fc.boolean(),
  headerCarries: fc.boolean(),
  asJournal: fc.boolean(),
});

type Exchanges = typeof exchanges extends fc.Arbitrary<infer T> ? T : never;

interface Line {
  method: string;
  path: string;
  query: string;
  status: number;
  request: { headers: Record<string, string>; body: unknown; body_truncated: boolean };
}

/**
 * The exchanges as a proxy --record folder writes them, or as the mock's journal export holds them (newest first, each
 * answer beside its request, the records' files beside it); the recording's path, its folder, records and lines.
 */
function recorded(drawn: Exchanges): { dir: string; folder: string; records: HumanEvaluation[]; lines: Line[] } {
  const folder = tempDir();
  const dir = drawn.asJournal ? join(folder, 'journal.json') : folder;
  mkdirSync(join(folder, 'human-evaluations'));
  const records: HumanEvaluation[] = [];
  const lines: Line[] = [];
  for (const { seed, profile, state, sameApp, extra } of drawn.fetches) {
    const built = build('HumanEvaluation', { seed, profile, state });
    const first = records[0];
    // Two records of one app and one user: the same originals in two files.
    const record = sameApp && first ? { ...built, app_id: first.app_id, user_username: first.user_username } : built;
    const kept = extra ? { ...record, owner: record.user_username } : record;
    if (records.some((other) => other.id === record.id)) continue;
    records.push(kept);
    writeFileSync(join(folder, 'human-evaluations', `${record.id}.json`), `${JSON.stringify(kept, null, 2)}\n`);
    lines.push({
      method: 'GET',
      path: `/human-evaluations/${record.id}`,
      query: drawn.queryCarries ? `user=${encodeURIComponent(record.user_username)}&page=2` : '',
      status: 200,
      request: {
        headers: { accept: 'application/json', ...(drawn.headerCarries ? { 'x-app-id': record.app_id } : {}) },
        body: null,
        body_truncated: false,
      },
    });
  }
  for (const { seed, of } of drawn.creates) {
    const record = records[of % records.length] as HumanEvaluation;
    const body: CreateEvaluationRequest = {
      ...build('CreateEvaluationRequest', { seed }),
      app_id: record.app_id,
      variant_ids: record.variant_ids,
      testset_id: record.testset_id,
      lm_providers_keys: { OPENAI_API_KEY: '<PROVIDER_KEY>' },
    };
    lines.push({
      method: 'POST',
      path: '/evaluations',
      query: drawn.queryCarries ? `testset=${Buffer.from(record.testset_id).toString('base64')}` : '',
      status: 200,
      request: { headers: { 'content-type': 'application/json' }, body, body_truncated: false },
    });
  }
  if (drawn.asJournal) {
    const answer = (line: Line) => records.find((record) => line.path.endsWith(`/${record.id}`)) ?? null;
    const entries = lines.map((line, id) => ({ id, ...line, response: { headers: {}, body: answer(line) } }));
    writeFileSync(dir, JSON.stringify({ requests: entries.reverse() }));
  } else writeFileSync(join(dir, 'requests.jsonl'), lines.map((line) => `${JSON.stringify(line)}\n`).join(''));
  return { dir, folder, records, lines };
}

/** Every file under a folder with its text. */
function filesOf(dir: string): Map<string, string> {
  const files = new Map<string, string>();
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true }))
    if (entry.isFile())
      files.set(join(entry.parentPath, entry.name), readFileSync(join(entry.parentPath, entry.name), 'utf8'));
  return files;
}

/** The ways a value may be written in a file: plain, JSON-escaped (some characters or all), percent-encoded, base64. */
function forms(value: string): string[] {
  const escapedAll = [...value]
    .map((character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`)
    .join('');
  const base64 = Buffer.from(value).toString('base64');
  return [
    value,
    JSON.stringify(value).slice(1, -1),
    escapedAll,
    encodeURIComponent(value),
    base64,
    base64.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, ''),
  ];
}

/** Each personal value of a body (the schemas' marks), in document order. */
function personal(schema: Parameters<typeof mapStrings>[0], body: unknown): string[] {
  const values: string[] = [];
  mapStrings(schema, body, (text, kind) => {
    if (kind === 'personal') values.push(text);
    return text;
  });
  return values;
}

/** Whether a value has a character a pseudonym draws (a letter, digit or symbol): one of only punctuation is kept. */
const drawable = (value: string) => /[^\p{Z}\p{Cc}!-/:-@[-`{-~]/u.test(value);

/** Long enough that no pseudonym's random letters hold it by chance (26^-8 a place): searched anywhere in a file. */
const searchedAnywhere = 8;

describe('evalkit fixtures --from --pseudonymize: recorded exchanges without personal data, still coherent', () => {
  it(
    'every record valid, no original left in any form, one pseudonym per original, forms and structure kept; ' +
      'the scan finds none; contract --replay of it runs',
    async () => {
      await fc.assert(
        fc.asyncProperty(exchanges, async (drawn) => {
          const source = recorded(drawn);
          const out = join(tempDir(), 'fixtures');
          const written = await runCli([
            'fixtures',
            '--from',
            source.dir,
            '--out',
            out,
            '--pseudonymize',
            '--pseudonym-key',
            keyFile,
          ]);
          expect(written.code, written.stderr).toBe(0);
          const outLines = readFileSync(join(out, 'requests.jsonl'), 'utf8')
            .trim()
            .split('\n')
            .map((line) => JSON.parse(line) as Line);
          expect(outLines.length).toBe(source.lines.length);

          // One pseudonym per original, across every file and field: pairs read side by side.
          const pseudonymOf = new Map<string, string>();
          const pair = (original: string, fake: string) => {
            expect(pseudonymOf.get(original) ?? fake, `one pseudonym for ${original}`).toBe(fake);
            pseudonymOf.set(original, fake);
          };
          source.lines.forEach((line, index) => {
            const written = outLines[index] as Line;
            expect(written.method).toBe(line.method);
            if (line.method === 'POST') {
              const before = personal(bodySchema('CreateEvaluationRequest'), line.request.body);
              const after = personal(bodySchema('CreateEvaluationRequest'), written.request.body);
              expect(after.length).toBe(before.length);
              before.forEach((original, at) => pair(original, after[at] as string));
              expect(validate('CreateEvaluationRequest', written.request.body).valid).toBe(true);
              const { rate_limit, lm_providers_keys } = line.request.body as CreateEvaluationRequest;
              expect(written.request.body).toMatchObject({ rate_limit, lm_providers_keys });
              return;
            }
            const id = decodeURIComponent(line.path.split('/').pop() as string);
            const fakeId = decodeURIComponent(written.path.split('/').pop() as string);
            pair(id, fakeId);
            // The record's file is named by the pseudonym of the id its request's path holds.
            const record = source.records.find((candidate) => candidate.id === id) as HumanEvaluation;
            const file = join(out, 'human-evaluations', `${fakeId}.json`);
            const rewritten = JSON.parse(readFileSync(file, 'utf8')) as HumanEvaluation & { owner?: string };
            expect(validate('HumanEvaluation', rewritten).valid).toBe(true);
            const before = personal(bodySchema('HumanEvaluation'), record);
            const after = personal(bodySchema('HumanEvaluation'), rewritten);
            before.forEach((original, at) => pair(original, after[at] as string));
            // What is no one's stays as it was: state, type, revisions, dates; each variant array as long.
            for (const field of ['evaluation_type', 'status', 'revisions', 'created_at', 'updated_at'] as const)
              expect(rewritten[field]).toEqual(record[field]);
            for (const field of ['variant_ids', 'variant_names', 'variants_revision_ids'] as const)
              expect(rewritten[field].map((value) => pseudonymOf.get(value) ?? value)).toEqual(rewritten[field]);
            expect(rewritten.variant_ids.map((fake, at) => [fake, rewritten.variant_names[at]])).toEqual(
              record.variant_ids.map((original, at) => [
                pseudonymOf.get(original),
                pseudonymOf.get(record.variant_names[at] as string),
              ]),
            );
            // A field the spec does not list holding a personal value: swept to the same pseudonym.
            if ('owner' in record) expect(rewritten.owner).toBe(pseudonymOf.get(record.user_username));
          });
          expect(readdirSync(join(out, 'human-evaluations')).length).toBe(source.records.length);

          for (const [original, fake] of pseudonymOf) {
            if (!drawable(original)) continue;
            expect(fake).not.toBe(original);
            expect([...fake].length).toBe([...original].length);
            if (/^[0-9a-f]{24}$/.test(original)) expect(fake.slice(0, 8)).toBe(original.slice(0, 8));
            if (/^[0-9a-f]{8}-[0-9a-f]{4}-7/.test(original)) expect(fake.slice(0, 15)).toBe(original.slice(0, 15));
          }
          // Distinct originals, distinct pseudonyms.
          const searched = [...pseudonymOf.keys()].filter((original) => original.length >= 4 && drawable(original));
          expect(new Set(searched.map((original) => pseudonymOf.get(original))).size).toBe(searched.length);

          // No original in any file, in any form: long ones anywhere in the text, short ones as a whole string.
          const files = filesOf(out);
          for (const [file, text] of files) {
            const strings = new Set<string>();
            for (const line of file.endsWith('.jsonl') ? text.trim().split('\n') : [text])
              mapStrings(undefined, JSON.parse(line), (value) => (strings.add(value), value));
            for (const original of searched)
              for (const form of forms(original))
                if (original.length >= searchedAnywhere) expect(text.includes(form), `${file}: ${form}`).toBe(false);
                else expect(strings.has(form), `${file}: ${form}`).toBe(false);
          }

          // Another run with the same key writes the same bytes: the pseudonyms are the key's and the originals'.
          const again = join(tempDir(), 'fixtures');
          const second = await runCli([
            'fixtures',
            '--from',
            source.dir,
            '--out',
            again,
            '--pseudonymize',
            '--pseudonym-key',
            keyFile,
          ]);
          expect(second.code).toBe(0);
          const relativeTexts = (dir: string) =>
            [...filesOf(dir)].map(([file, text]) => [file.slice(dir.length), text]).sort();
          expect(relativeTexts(again)).toEqual(relativeTexts(out));

          const scan = await runCli(['fixtures', 'scan', out, '--against', source.dir]);
          expect(scan.code, scan.stdout).toBe(0);
          // The recording itself holds them all in clear (a journal export beside the records it answered).
          const clear = await runCli(['fixtures', 'scan', source.folder, '--against', source.dir]);
          expect(clear.code).toBe(1);

          const replay = await runCli(['contract', '--base-url', deployment.url, '--replay', out]);
          expect(replay.code, replay.stdout).toBe(0);
          expect(replay.stdout).toContain(`${source.lines.length} replayed, 0 refused, 0 skipped`);
        }),
        runs(25),
      );
    },
    limitFor(25, 600),
  );

  it('keeps the key in .evalkit/pseudonym-key of the working directory by default, refusing a link there', async () => {
    const source = recorded({
      fetches: [{ seed: 3, profile: 'mixed', state: 'EVALUATION_FINISHED', sameApp: false, extra: false }],
      creates: [],
      queryCarries: false,
      headerCarries: false,
      asJournal: false,
    });
    const project = tempDir();
    const out = join(project, 'fixtures');
    const run = await spawnCli(['fixtures', '--from', source.dir, '--out', out, '--pseudonymize'], { cwd: project });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain('created the pseudonym key .evalkit/pseudonym-key (mode 0600)');
    expect(statSync(join(project, '.evalkit', 'pseudonym-key')).mode & 0o777).toBe(0o600);
    expect(readdirSync(out).sort()).toEqual(['human-evaluations', 'requests.jsonl']);

    // A link planted in place of .evalkit, to a folder holding a key someone else knows: neither read nor written.
    const planted = tempDir();
    const elsewhere = tempDir();
    writeFileSync(join(elsewhere, 'pseudonym-key'), `${'ab'.repeat(32)}\n`, { mode: 0o600 });
    symlinkSync(elsewhere, join(planted, '.evalkit'));
    const refused = await spawnCli(
      ['fixtures', '--from', source.dir, '--out', join(planted, 'out'), '--pseudonymize'],
      {
        cwd: planted,
      },
    );
    expect(refused.code).toBe(2);
    expect(refused.stderr).toBe(
      'evalkit fixtures: --pseudonym-key: .evalkit is a symbolic link: evalkit writes only inside the folder asked ' +
        'for, never through a link (remove it)\n',
    );
    expect(readdirSync(elsewhere)).toEqual(['pseudonym-key']);
    expect(readdirSync(planted)).toEqual(['.evalkit']);
    // The default file typed another way is the default file, its folder refused alike.
    const typed = await spawnCli(
      [
        'fixtures',
        '--from',
        source.dir,
        '--out',
        join(planted, 'out'),
        '--pseudonymize',
        '--pseudonym-key',
        './.evalkit/pseudonym-key',
      ],
      { cwd: planted },
    );
    expect(typed.code).toBe(2);
    expect(typed.stderr).toContain('.evalkit is a symbolic link');
  });
});
