import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { compareMockOptions } from '../../cli/compare-mock.js';
import type { MockDifference } from '../../contract/compare/differences.js';
import { ContractOptionError, runContract } from '../../contract/index.js';
import { shellQuote } from '../../http/shell.js';
import { createMockCore } from '../../mock/index.js';
import { readScenarioFile } from '../../mock/node/scenario-file.js';
import { runCli } from '../helpers/cli.js';
import { removeTempDirs, tempDir } from '../helpers/temp-dirs.js';
import { scenarioValues } from '../properties/arbitraries.js';
import { limitFor, runs } from '../properties/runs.js';
import { startConformingServer, type Behaviour } from './conforming-server.js';

const dir = tempDir('evalkit-compare-scenarios-');
afterAll(removeTempDirs);

let files = 0;
/** A scenarios file in the test's folder, under `name` (a fresh one by default). */
function scenariosFile(content: string | Uint8Array, name = `scenarios-${++files}.json`): string {
  const file = join(dir, name);
  writeFileSync(file, content);
  return file;
}

/** `evalkit contract --compare-mock --mock-scenarios FILE` against nothing listening: the file read, no request. */
const withScenarios = (file: string) =>
  runCli(['contract', '--base-url', 'http://127.0.0.1:9', '--compare-mock', '--mock-scenarios', file]);

/** The comparison of a run against a conforming deployment of this behaviour, given these --compare-mock flags. */
async function comparison(behaviour: Behaviour, flags: Record<string, string | boolean> = {}) {
  const server = await startConformingServer(behaviour);
  try {
    const compareMock = compareMockOptions({ 'compare-mock': true, ...flags }, server.url);
    const report = await runContract({ baseUrl: server.url, compareMock });
    return report.mock as NonNullable<typeof report.mock>;
  } finally {
    await server.close();
  }
}

const states = (differences: readonly MockDifference[]) =>
  differences.filter((difference) => difference.aspect === 'created state').map((d) => `${d.deployment} / ${d.mock}`);

describe('--mock-scenarios FILE: the compared mock answers under the file', () => {
  // The 0.17 release's state on create, set per operation: what the mock's --scenarios reads.
  const started = JSON.stringify({ operations: { createEvaluations: { state: 'EVALUATION_STARTED' } } });

  it('a deployment that answers as the file says shows no difference there; one that does not shows it', async () => {
    const file = scenariosFile(started, 'release 0.17 scenarios.json');
    const flags = { 'mock-scenarios': file };
    const alike = await comparison({ evaluationState: 'EVALUATION_STARTED' }, flags);
    expect(states(alike.differences)).toEqual([]);
    const unlike = await comparison({}, flags);
    expect(states(unlike.differences)).toEqual(['EVALUATION_INITIALIZED / EVALUATION_STARTED']);
    // Without the file the same deployment differs in its state: the file is what the mock answered under.
    expect(states((await comparison({ evaluationState: 'EVALUATION_STARTED' })).differences)).toEqual([
      'EVALUATION_STARTED / EVALUATION_INITIALIZED',
    ]);
    // The command lines carry the file, quoted for a shell, before the settings searched.
    for (const mock of [alike, unlike]) {
      expect(mock.command).toBe(`evalkit mock --scenarios ${shellQuote(file)}`);
      expect(mock.suggested.command.startsWith(mock.command)).toBe(true);
    }
  });

  it('settings the file cannot be started under are never suggested: its eraDates needs the given era', async () => {
    // Valid with --mock-era, refused without one: the run ends with its report, and a command that starts.
    const file = scenariosFile(JSON.stringify({ scenario: { eraDates: true } }));
    const mock = await comparison({}, { 'mock-scenarios': file, 'mock-era': '0.18' });
    expect(mock.command).toBe(`evalkit mock --scenarios ${file} --era 0.18`);
    expect(mock.differences.length).toBeGreaterThan(0);
    expect(mock.suggested.command).toMatch(new RegExp(`^evalkit mock --scenarios ${file} --era 0\\.1[789]( |$)`));
    const refused = await withScenarios(file);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/^evalkit contract: --mock-scenarios: eraDates .*needs an era[^\n]*\n$/);
  });

  it('a caller whose mock refuses the settings it gives gets an option error before any request', async () => {
    const compareMock = { given: {}, source: {}, answererFor: () => undefined };
    const run = runContract({ baseUrl: 'http://127.0.0.1:9', compareMock });
    await expect(run).rejects.toBeInstanceOf(ContractOptionError);
    await expect(run).rejects.toThrow(/^--compare-mock: the mock refuses the settings it was given$/);
  });
});

/** Keys where a writer of the file or an attacker could put anything: line breaks, escapes, runner commands. */
const hostileKey = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.constantFrom('x\ny', 'a\r\n::error::f', '\u001b[31m', '##[add-mask]k', '\u2028', '__proto__', 'constructor'),
);
const anyValue = fc.jsonValue({ maxDepth: 2 });

/** A file the mock's --scenarios reads: any documented values in each section, any evaluation id. */
const validFile: fc.Arbitrary<Record<string, unknown>> = fc.record(
  {
    scenario: scenarioValues,
    // The create operation by its name or the one it had before, never both: the file would name it twice.
    operations: fc
      .tuple(fc.constantFrom('createEvaluations', 'createEvaluation'), fc.option(scenarioValues, { nil: undefined }))
      .chain(([create, values]) =>
        fc
          .record({ fetchHumanEvaluation: scenarioValues }, { requiredKeys: [] })
          .map((operations) => (values ? { ...operations, [create]: values } : operations)),
      ),
    humanEvaluations: fc.dictionary(fc.string({ minLength: 1, maxLength: 30 }), scenarioValues, { maxKeys: 2 }),
  },
  { requiredKeys: [] },
);

/** A valid file with one entry added, at the top or in a section: a hostile key, any value. */
const oneEntryOff = fc
  .tuple(validFile, fc.constantFrom('', 'scenario', 'operations', 'humanEvaluations'), hostileKey, anyValue)
  .map(([file, section, key, value]) => {
    const inside = file[section];
    return section !== '' && inside && typeof inside === 'object'
      ? { ...file, [section]: { ...inside, [key]: value } }
      : { ...file, [section || key]: value };
  });

/** A file's content: valid ones and their neighbours, any bytes, any JSON, hostile keys at the top, deep nesting. */
const fileContent: fc.Arbitrary<string | Uint8Array> = fc.oneof(
  { arbitrary: validFile.map((file) => JSON.stringify(file)), weight: 4 },
  oneEntryOff.map((file) => JSON.stringify(file)),
  fc.uint8Array({ maxLength: 64 }),
  fc.jsonValue({ maxDepth: 3 }).map((value) => JSON.stringify(value)),
  fc.dictionary(hostileKey, anyValue, { minKeys: 1, maxKeys: 2 }).map((value) => JSON.stringify(value)),
  fc.nat(100_000).map((depth) => `{"scenario": ${'['.repeat(depth)}${']'.repeat(depth)}}`),
);

/** Whether the mock itself takes the file (`evalkit mock --scenarios`): read, checked, and a core made from it. */
function mockTakes(file: string): boolean {
  try {
    createMockCore({ scenarios: readScenarioFile(file), log: () => undefined });
    return true;
  } catch {
    return false;
  }
}

describe('--mock-scenarios over any file content', () => {
  it(
    'the run goes on with the file as the mock reads it, or exits 2 with one line naming --mock-scenarios',
    async () => {
      await fc.assert(
        fc.asyncProperty(fileContent, async (content) => {
          const file = scenariosFile(content);
          const run = await withScenarios(file);
          const refused = run.stderr.startsWith('evalkit contract: --mock-scenarios: ');
          expect(refused).toBe(!mockTakes(file));
          if (refused) {
            expect(run.code).toBe(2);
            expect(run.stdout).toBe('');
            // One line as a terminal or a CI log reads lines, and nothing in it a terminal would obey.
            expect(run.stderr.slice(0, -1).split(/\r\n|\r|\n|\u2028|\u2029|\u0085/)).toHaveLength(1);
            expect(run.stderr.endsWith('\n')).toBe(true);
            expect(run.stderr).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]|##\[|\n\s+at /);
          } else {
            // Taken: the run ran (against nothing listening: exit 2, unreachable) with the file's mock.
            expect(run.stdout).toContain(`compared with the mock (evalkit mock --scenarios ${file}): nothing compared`);
            expect(run.stderr).not.toContain('--mock-scenarios');
          }
        }),
        runs(60),
      );
    },
    limitFor(60),
  );
});
