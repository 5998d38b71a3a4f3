import { runContract, type Report } from '../contract/index.js';
import { startMockServer } from '../mock/index.js';
import { failIfMissed, sized } from './quick.js';

/**
 * What --concurrency buys: property-based cases per second at 1, 4 and 16 in flight against the project's mock
 * answering after 50 ms (serving the committed fixtures with --strict-ids, so nothing fails and nothing shrinks),
 * and the time of a whole run with 1,000 property cases (target < 10 s).
 *
 * Cases per second are the property phase alone: a run with N cases less a run without any, at the same concurrency.
 */

const latencyMs = sized(50, 2);
const target = 10_000;
/** Enough cases for the property phase to outweigh start-up, few enough that 1 in flight ends in seconds. */
const casesAt: Record<number, number> = sized({ 1: 100, 4: 400, 16: 1000 }, { 1: 4, 4: 8, 16: 16 });
/** The whole run the target is set for. */
const targetCases = sized(1_000, 16);

async function timed(baseUrl: string, concurrency: number, examples: number): Promise<{ ms: number; report: Report }> {
  const started = performance.now();
  const report = await runContract({ baseUrl, concurrency, examples, seed: 'bench' });
  return { ms: performance.now() - started, report };
}

async function main(): Promise<void> {
  const server = await startMockServer({
    port: 0,
    scenario: { latency: latencyMs },
    fixturesDir: new URL('../../fixtures/mock', import.meta.url).pathname,
    strictIds: true,
  });
  try {
    process.stdout.write(
      `evalkit contract --concurrency against the mock answering after ${latencyMs} ms ` +
        `(node ${process.version}, ${process.platform})\n\n`,
    );
    process.stdout.write(
      '| in flight | property cases | run | without cases | cases/s | failed checks |\n|---|---|---|---|---|---|\n',
    );
    for (const [concurrency, examples] of Object.entries(casesAt).map(
      ([key, value]) => [Number(key), value] as const,
    )) {
      const suite = await timed(server.url, concurrency, 0);
      const run = await timed(server.url, concurrency, examples);
      const rate = (examples / (run.ms - suite.ms)) * 1000;
      process.stdout.write(
        `| ${concurrency} | ${examples} | ${(run.ms / 1000).toFixed(2)} s | ${(suite.ms / 1000).toFixed(2)} s | ` +
          `${rate.toFixed(0)} | ${run.report.summary.failed} |\n`,
      );
    }
    process.stdout.write('\n');
    let missed = false;
    for (const concurrency of [16, 4]) {
      const { ms, report } = await timed(server.url, concurrency, targetCases);
      missed ||= concurrency === 16 && ms >= target;
      process.stdout.write(
        `${targetCases.toLocaleString('en')} property cases at ${String(concurrency).padStart(2)} in flight: ` +
          `${(ms / 1000).toFixed(2)} s ` +
          `(${report.requests} requests, ${report.summary.failed} checks failed)\n`,
      );
    }
    process.stdout.write(
      `target: 1,000 cases under ${target / 1000} s at 16 in flight: ${missed ? 'MISSED' : 'met'}\n`,
    );
    failIfMissed(missed);
  } finally {
    await server.close();
  }
}

await main();
