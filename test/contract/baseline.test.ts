import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mutation } from './bank.js';
import {
  startConformingServer,
  type Answer,
  type Behaviour,
  type Context,
  type RunningServer,
} from './conforming-server.js';
import { runCli, startCli } from '../helpers/cli.js';
import { answer, postJson } from '../proxy/helpers.js';
import { limitFor, runs } from '../properties/runs.js';

/**
 * A baseline as a team keeps one (issue 44): the ids of the findings a deployment had when it was made, accepted by
 * `--ignore FILE`; one of its faults fixed since, so its id is stale. `contract` and `proxy` read the same file.
 */
const dir = mkdtempSync(join(tmpdir(), 'evalkit-baseline-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The bank's faults planted together: each mutation's rewrite applied in turn. */
function planted(...names: string[]): Behaviour {
  const rewrites = names.map((name) => mutation(name).rewrite as (answer: Answer, context: Context) => Answer);
  return { rewrite: (given, context) => rewrites.reduce((current, rewrite) => rewrite(current, context), given) };
}

/** Faults the team accepted, and one fixed since the baseline was made. */
const known = [
  'required user_username missing from HumanEvaluation',
  '500 instead of 422 for an invalid create request',
];
const fixed = 'plain-text 500 for an unknown id';

interface JsonReport {
  verdict: string;
  summary: { failed: number; accepted: number };
  checks: Array<{ id: string; outcome: string; ids?: Array<{ id: string; accepted: boolean }> }>;
  baseline?: { accepted: string[]; stale: string[] };
}

const read = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as JsonReport;
const idsOf = (report: JsonReport, check: string) =>
  (report.checks.find((candidate) => candidate.id === check)?.ids ?? []).map(({ id }) => id);

/** The baseline made before the fix: every id the contract found then, with a comment, written with CRLF. */
async function baselineFile(): Promise<{ file: string; ids: Record<string, string[]> }> {
  const before = await startConformingServer(planted(...known, fixed));
  try {
    const json = join(dir, 'before.json');
    expect((await runCli(['contract', '--base-url', before.url, '--seed', '1', '--report-json', json])).code).toBe(1);
    const report = read(json);
    const ids = Object.fromEntries(
      report.checks.filter((check) => check.outcome === 'failed').map((check) => [check.id, idsOf(report, check.id)]),
    );
    const file = join(dir, 'known-findings.txt');
    const lines = Object.entries(ids).flatMap(([check, found]) => found.map((id) => `${id}  # ${check}`));
    writeFileSync(file, `\ufeff# accepted after review, issue 44\r\n${lines.join('\r\n')}\r\n`);
    return { file, ids };
  } finally {
    await before.close();
  }
}

describe('--ignore FILE: a baseline of accepted findings', () => {
  let baseline: { file: string; ids: Record<string, string[]> };
  let after: RunningServer;
  beforeAll(async () => {
    baseline = await baselineFile();
    after = await startConformingServer(planted(...known));
  });
  afterAll(() => after.close());
  const stale = 'fetch.status.5xx';
  const staleLine = () =>
    `--ignore: 2 accepted ids found; 1 stale id, found no more (remove from the file): ${baseline.ids[stale]?.[0]}`;

  it('contract: the known failures exit 0, listed as accepted; the id of the fixed fault is stale', async () => {
    const { file, ids } = baseline;
    expect(Object.keys(ids).sort()).toEqual(['create.status.5xx', 'fetch.body.schema', stale]);
    // Without the baseline the known failures fail the run.
    expect((await runCli(['contract', '--base-url', after.url, '--seed', '7'])).code).toBe(1);
    const json = join(dir, 'after.json');
    const run = await runCli([
      'contract',
      '--base-url',
      after.url,
      '--seed',
      '7',
      '--ignore',
      file,
      '--report-json',
      json,
    ]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^ {2}ACCEPTED fetch\.body\.schema {2}GET \/human-evaluations\/.*user_username/m);
    expect(run.stdout).toMatch(/^ {2}ACCEPTED create\.status\.5xx /m);
    expect(run.stdout).toContain(staleLine());
    expect(run.stdout).toMatch(/\nPASS: \d+ passed, 0 failed \(0 errors, 0 warnings\), 2 accepted, /);
    const report = read(json);
    expect(report.verdict).toBe('PASS');
    expect(report.summary).toMatchObject({ failed: 0, accepted: 2 });
    expect(report.baseline).toEqual({
      accepted: [...(ids['fetch.body.schema'] as string[]), ...(ids['create.status.5xx'] as string[])],
      stale: ids[stale],
    });
    for (const check of ['fetch.body.schema', 'create.status.5xx'])
      expect(report.checks.find((candidate) => candidate.id === check)).toMatchObject({
        outcome: 'accepted',
        ids: (ids[check] as string[]).map((id) => ({ id, accepted: true })),
      });
  });

  it("proxy: the same causes in a client's traffic have the same ids: accepted live and on stop, exit 0", async () => {
    const proxy = startCli(['proxy', '--target', after.url, '--port', '0', '--ignore', baseline.file]);
    try {
      const [, url] = await proxy.waitFor(/listening on (http:\/\/\S+),/, 10_000);
      expect((await answer(`${url}/human-evaluations/6637c0a25368ef07b03a64cd`)).status).toBe(200);
      expect((await answer(`${url}/evaluations`, postJson({ app_id: 42 }))).status).toBe(500);
      await proxy.waitFor(/ACCEPTED create\.status\.5xx .*\[id [0-9a-f]{12}, accepted\]/, 5_000);
      proxy.process.kill('SIGTERM');
      expect((await proxy.exited).code).toBe(0);
      const stopped = proxy.stdout().slice(proxy.stdout().indexOf('evalkit proxy stopped'));
      expect(stopped).toMatch(/^ {2}ACCEPTED fetch\.body\.schema /m);
      expect(stopped).toMatch(/^ {2}ACCEPTED create\.status\.5xx /m);
      expect(stopped).toContain(staleLine());
      expect(stopped).toMatch(/\nPASS: \d+ passed, 0 failed \(0 errors, 0 warnings\), 2 accepted, /);
    } finally {
      proxy.kill();
    }
  });

  it('a file that is no baseline is refused before anything runs: exit 2, one line naming file and line', async () => {
    const file = join(dir, 'hostile.txt');
    writeFileSync(file, `# ok\n0123456789ab\n\u001b[2J\u0000not an id\u2028${'x'.repeat(100_000)}\n`);
    for (const args of [
      ['contract', '--base-url', 'http://127.0.0.1:9'],
      ['proxy', '--target', 'http://127.0.0.1:9', '--port', '0'],
    ]) {
      const run = await runCli([...args, '--ignore', file]);
      expect(run.code, args[0]).toBe(2);
      expect(run.stdout, args[0]).toBe('');
      const lines = run.stderr.split('\n');
      expect(lines, args[0]).toHaveLength(2);
      expect(lines[0]).toMatch(new RegExp(`^evalkit ${args[0]}: --ignore ${file} line 3: ".*"…? is not an id`));
      expect(lines[0]?.length).toBeLessThan(500);
    }
  });

  it(
    'property: any file is read (against no traffic, each of its ids stale) or refused: exit 2, one line',
    async () => {
      const id = fc.string({ unit: fc.constantFrom(...'0123456789abcdef'), minLength: 12, maxLength: 12 });
      const line = fc.oneof(
        id,
        id.map((value) => `${value}  # reviewed`),
        fc.constantFrom('', '# a comment', '\ufeff', '\u0000', '\u001b[31m', '\u2028'),
        fc.tuple(fc.constantFrom('\u0000', '\u2028', '\r', '\ufeff'), id).map(([bad, value]) => `${bad}${value}`),
        fc.string({ maxLength: 300 }),
      );
      const file = join(dir, 'property.txt');
      await fc.assert(
        fc.asyncProperty(fc.array(line, { maxLength: 8 }), fc.constantFrom('\n', '\r\n'), async (lines, end) => {
          const text = lines.join(end);
          writeFileSync(file, text);
          const args = ['proxy', '--target', 'http://127.0.0.1:9', '--port', '0', '--ignore', file];
          const run = await runCli(args, { shutdown: Promise.resolve('SIGTERM') });
          if (run.code === 2) {
            expect(run.stdout).toBe('');
            expect(run.stderr.split('\n')).toHaveLength(2);
            expect(run.stderr.startsWith(`evalkit proxy: --ignore ${file} line `)).toBe(true);
            return;
          }
          // Read: no traffic passed, so nothing was verified, and every id of the file is stale.
          expect(run.code).toBe(1);
          const ids = new Set(text.split(/\r?\n/).map((each) => each.replace(/#.*/, '').trim()));
          ids.delete('');
          const stale =
            ids.size === 0 ? 'none stale' : `${ids.size} stale id${ids.size === 1 ? '' : 's'}, found no more`;
          expect(run.stdout).toContain(`--ignore: 0 accepted ids found${ids.size === 0 ? ', ' : '; '}${stale}`);
        }),
        runs(40),
      );
    },
    limitFor(40),
  );
});
