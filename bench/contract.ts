import { exitCode, runContract, type ContractOptions, type Report } from '../contract/index.js';
import { startMockServer } from '../mock/index.js';

/**
 * Speed of `evalkit contract` against a local deployment: the default suite (target < 5 s) and 1,000
 * property-based cases (target < 30 s), against the project's own mock serving the committed fixtures with
 * --strict-ids (a deployment with real ids); pass a URL as the first argument to time another deployment instead.
 */

const targets = { suite: 5_000, properties: 30_000 };

async function timed(options: ContractOptions): Promise<{ ms: number; report: Report }> {
  const started = performance.now();
  const report = await runContract(options);
  return { ms: performance.now() - started, report };
}

function line(name: string, ms: number, target: number, report: Report): string {
  const met = ms < target ? 'met' : 'MISSED';
  const counts = `${report.requests} requests; exit ${exitCode(report)}; ${report.summary.failed} checks failed`;
  return `${name.padEnd(34)} ${ms.toFixed(0).padStart(6)} ms  (target < ${target / 1000} s: ${met}; ${counts})`;
}

async function main(): Promise<void> {
  const given = process.argv[2];
  const server = given
    ? undefined
    : await startMockServer({
        port: 0,
        fixturesDir: new URL('../../fixtures/mock', import.meta.url).pathname,
        strictIds: true,
      });
  const baseUrl = given ?? (server?.url as string);
  try {
    const runs: number[] = [];
    let last: Report | undefined;
    for (let run = 0; run < 5; run++) {
      const { ms, report } = await timed({ baseUrl });
      runs.push(ms);
      last = report;
    }
    runs.sort((a, b) => a - b);
    process.stdout.write(`evalkit contract bench against ${baseUrl} (node ${process.version}, ${process.platform})\n`);
    process.stdout.write(`${line('default suite (median of 5)', runs[2] as number, targets.suite, last as Report)}\n`);
    const properties = await timed({ baseUrl, examples: 1000, seed: 'bench' });
    process.stdout.write(
      `${line('default suite + 1,000 properties', properties.ms, targets.properties, properties.report)}\n`,
    );
    if ((runs[2] as number) >= targets.suite || properties.ms >= targets.properties) process.exitCode = 1;
  } finally {
    await server?.close();
  }
}

await main();
