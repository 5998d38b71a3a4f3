import { mkdirSync, writeFileSync } from 'node:fs';
import { afterAll, describe, it } from 'vitest';
import { startConformingServer } from './conforming-server.js';
import { runContract, type Report } from '../../contract/index.js';
import { bankCreateBody, conforming, mutations, type BankEntry, type Expected } from './bank.js';

/**
 * The entries that hang set a shorter --timeout to stay quick (1.5 s: their requests that are answered still are
 * within it on a machine shared with busy loops, where 400 ms once cost a GET); the others get a loose one, so a
 * machine slowed by other work never turns a slow answer into a finding (a false alarm the bank would count).
 */
const looseTimeoutMs = 5_000;

async function judge(entry: BankEntry): Promise<Report> {
  const server = await startConformingServer(entry.behaviour);
  try {
    return await runContract({
      baseUrl: server.url,
      deployment: {
        createEvaluations: bankCreateBody,
        ...(entry.humanEvaluationId !== undefined && { fetchHumanEvaluation: entry.humanEvaluationId }),
      },
      headers: entry.headers,
      timeoutMs: entry.timeoutMs ?? looseTimeoutMs,
    });
  } finally {
    await server.close();
  }
}

function failedChecks(report: Report): Expected[] {
  return report.checks.filter((check) => check.outcome === 'failed').map(({ id, severity }) => ({ id, severity }));
}

const sortById = (list: Expected[]) => [...list].sort((a, b) => a.id.localeCompare(b.id));

const score = { mutations: mutations.length, caught: 0, conforming: conforming.length, falseAlarms: 0 };

// Each entry judges a server of its own: they run a few at once (vitest's maxConcurrency), so the hanging entries'
// waits overlap the others' work. Those entries, with their short --timeout, run alone.
describe.concurrent('the bank of broken servers', () => {
  afterAll(() => {
    const result = {
      ...score,
      mutationScore: `${score.caught}/${score.mutations}`,
      falseAlarmRate: `${score.falseAlarms}/${score.conforming}`,
    };
    process.stdout.write(
      `contract bank: caught ${score.caught}/${score.mutations} mutations, ` +
        `false alarms ${score.falseAlarms}/${score.conforming} conforming variants\n`,
    );
    // A report, not a tracked file: running the tests never dirties the work tree.
    mkdirSync(new URL('../../reports/', import.meta.url), { recursive: true });
    writeFileSync(
      new URL('../../reports/contract-bank-score.json', import.meta.url),
      `${JSON.stringify(result, null, 2)}\n`,
    );
  });

  describe.each(mutations)('mutation: $name', (entry) => {
    const test = entry.timeoutMs === undefined ? it : it.sequential;
    test(`is caught by ${entry.expect.map((e) => `${e.id} (${e.severity})`).join(', ')} and nothing else`, async ({
      expect,
    }) => {
      const report = await judge(entry);
      expect(report.reachable).toBe(true);
      expect(sortById(failedChecks(report))).toEqual(sortById(entry.expect));
      for (const check of report.checks.filter((candidate) => candidate.outcome === 'failed')) {
        expect(check.reproduce, `${check.id} comes with a curl command`).toMatch(
          /^curl -sS -i --compressed -X (GET|POST) 'http:\/\/127\.0\.0\.1:\d+\//,
        );
      }
      score.caught++;
    });
  });

  describe.each(conforming)('conforming: $name', (entry) => {
    it(
      entry.expect.length ? `raises only ${entry.expect.map((e) => e.id).join(', ')}` : 'fails no check',
      async ({ expect }) => {
        const report = await judge(entry);
        const failed = failedChecks(report);
        if (failed.some((check) => check.severity === 'error') || failed.length !== entry.expect.length)
          score.falseAlarms++;
        expect(sortById(failed)).toEqual(sortById(entry.expect));
      },
    );
  });
});
