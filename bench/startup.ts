import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { benchMode, sized } from './quick.js';
import { root } from './server-process.js';
import { median } from './stats.js';

/**
 * How long `evalkit --version` and `evalkit --help` take from spawn to exit, against `node -e 0` (Node's own start-up)
 * in the same run, interleaved so that load on the machine falls on each alike. The CLI loads only the command that
 * runs: these two load none.
 * Usage: npm run bench:startup [-- RUNS]   (default 5)
 */
const runs = Number(benchMode().args[0] ?? sized(5, 1));
const evalkit = join(root, 'bin/evalkit.js');
const target = 2.5;

const subjects: Record<string, string[]> = {
  'node -e 0': ['-e', '0'],
  'evalkit --version': [evalkit, '--version'],
  'evalkit --help': [evalkit, '--help'],
};

function timeOnce(args: string[]): number {
  const start = process.hrtime.bigint();
  const result = spawnSync(process.execPath, args, { stdio: 'ignore' });
  if (result.status !== 0) throw new Error(`node ${args.join(' ')} exited ${String(result.status)}`);
  return Number(process.hrtime.bigint() - start) / 1e6;
}

const times: Record<string, number[]> = Object.fromEntries(Object.keys(subjects).map((name) => [name, []]));
for (let run = 0; run < runs; run++) {
  for (const [name, args] of Object.entries(subjects)) times[name]?.push(timeOnce(args));
}
const baseline = median(times['node -e 0'] ?? []);
for (const [name, values] of Object.entries(times)) {
  const ms = median(values);
  process.stdout.write(
    `  ${name.padEnd(18)} median of ${runs}: ${ms.toFixed(0)} ms (${(ms / baseline).toFixed(2)}x)\n`,
  );
}
const ratio = median(times['evalkit --version'] ?? []) / baseline;
const verdict = ratio <= target ? 'met' : 'MISSED';
process.stdout.write(`${verdict}    evalkit --version / node -e 0: ${ratio.toFixed(2)}x (target <= ${target}x)\n`);
