import { exitCode, runContract, type ContractOptions, type Report } from '../contract/index.js';
import { startMockServer } from '../mock/index.js';
import { benchMode, failIfMissed, sized } from './quick.js';
import { median } from './stats.js';

/**
 * Speed of `evalkit contract` against a local deployment: the default suite (target < 5 s) and 1,000
 * property-based cases (target < 30 s), against the project's own mock serving the committed fixtures with
 * --strict-ids (a deployment with real ids); pass a URL as the first argument to time another deployment instead.
 */

const targets = { suite: 5_000, properties: 30_000 };
const suiteRuns = sized(5, 1);
const propertyCases = sized(1_000, 20);

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
  const given = benchMode().args[0];
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
    for (let run = 0; run < suiteRuns; run++) {
      const { ms, report } = await timed({ baseUrl });
      runs.push(ms);
      last = report;
    }
    process.stdout.write(`evalkit contract bench against ${baseUrl} (node ${process.version}, ${process.platform})\n`);
    const suite = median(runs);
    process.stdout.write(`${line(`default suite (median of ${suiteRuns})`, suite, targets.suite, last as Report)}\n`);
    const properties = await timed({ baseUrl, examples: propertyCases, seed: 'bench' });
    const name = `default suite + ${propertyCases.toLocaleString('en')} properties`;
    process.stdout.write(`${line(name, properties.ms, targets.properties, properties.report)}\n`);
    failIfMissed(suite >= targets.suite || properties.ms >= targets.properties);
  } finally {
    await server?.close();
  }
}

await main();
