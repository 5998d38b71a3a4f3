import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import { beforeAll, describe, expect, it, type ExpectStatic } from 'vitest';
import { resourceNames } from '../../schemas/index.js';
import { builtCli, startChild } from '../mock/processes.js';

/**
 * Every `npm run bench:*` in quick mode: it ends and prints each of its figure lines, every number on them a number.
 * The values are not looked at: speed is measured by the benchmarks, never by a test. A bench that hangs is killed
 * (with its servers: they share its process group) and the test fails.
 *
 * The benches run from dist/bench. `npm test` builds only what ships (tsconfig.build.json), and `tsc -p
 * tsconfig.json` here would rewrite the whole of dist/ while other test files import it; so esbuild compiles
 * bench/*.ts alone, file by file, into dist/bench, where `npm run build:all` puts them (their imports of the package,
 * `../mock/index.js`, land on the built package). Types are checked by `npm run lint`.
 *
 * The benches run at once (no figure is judged, so they may share the machine): the file lasts as long as the longest.
 */
const { root } = builtCli();
const hangLimitMs = 120_000;

beforeAll(async () => {
  const benchDir = join(root, 'bench');
  const entryPoints = readdirSync(benchDir)
    .filter((file) => file.endsWith('.ts') && !file.endsWith('.d.ts'))
    .map((file) => join(benchDir, file));
  await build({
    entryPoints,
    outdir: join(root, 'dist/bench'),
    format: 'esm',
    platform: 'node',
    target: 'node20',
    logLevel: 'silent',
  });
});

/** A figure line: the line starting with `label` (after a table's `|` or a verdict), or matching it. */
type Label = string | RegExp;

interface Ran {
  /** Killed at the hang limit. */
  hung: boolean;
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

async function runQuick(bench: string): Promise<Ran> {
  const child = startChild(process.execPath, [`dist/bench/${bench}.js`, '--quick'], root);
  let hung = false;
  const timer = setTimeout(() => {
    hung = true;
    child.kill();
  }, hangLimitMs);
  const { code, signal } = await child.exited;
  clearTimeout(timer);
  return { hung, code, signal, stdout: child.stdout(), stderr: child.stderr() };
}

/** The lines of an output as figures are read: no table border, no verdict word before them. */
function figureLines(stdout: string): string[] {
  return stdout.split('\n').map((line) =>
    line
      .trim()
      .replace(/^\|\s*/, '')
      .replace(/^(met|MISSED|note)\s+/, ''),
  );
}

const numberPattern = /-?\d[\d,]*(?:\.\d+)?/g;

function expectFigures(expect: ExpectStatic, stdout: string, labels: Label[]): void {
  expect(stdout).not.toMatch(/NaN|Infinity|undefined/);
  const lines = figureLines(stdout);
  for (const label of labels) {
    const line = lines.find((text) => (typeof label === 'string' ? text.startsWith(label) : label.test(text)));
    expect(line, `a line for ${String(label)} in:\n${stdout}`).toBeDefined();
    const rest = typeof label === 'string' ? (line as string).slice(label.length) : (line as string);
    const numbers = (rest.match(numberPattern) ?? []).map((token) => Number(token.replaceAll(',', '')));
    expect(numbers.length, `numbers on "${line}"`).toBeGreaterThan(0);
    for (const value of numbers) expect(Number.isFinite(value), `"${line}"`).toBe(true);
  }
}

const benches: Record<string, Label[]> = {
  generators: [...resourceNames.map((name) => `${name} `), "build('HumanEvaluation'):"],
  contract: ['default suite (median of', 'default suite +'],
  'contract-concurrency': ['1 |', '4 |', '16 |', /^[\d,]+ property cases at 16 in flight/],
  mock: [
    'mock GET (same id) ',
    'mock GET (new id each request)',
    'mock POST (2 variants, 3 configs)',
    'mock GET (same id), journal on',
    'mock GET (new id), --no-journal',
    'mock POST (100 variants, 100 configs)',
    'mock POST (1 variant, 1 config)',
    'mock GET (same id), old space',
    'bare Express route ',
    'bare node:http',
    'mock GET (same id) CPU, journal on / --no-journal:',
    'mock GET (new id) CPU, journal on / --no-journal:',
    'mock GET CPU / bare Express, paired:',
    'largest create the mock accepts (100 variant ids x 100 evaluator configs):',
    'largest create CPU / 1 x 1 create, paired:',
    'mock p99 at',
    /^mock RSS after \d+k requests:/,
    /^mock RSS after \d+k mixed requests/,
    /^mock RSS after \d+k requests, --max-old-space-size/,
    'bare Express route RSS after',
  ],
  proxy: ['direct (bare node:http)', 'through evalkit proxy', 'added by the proxy', 'proxy RSS:'],
  'mock-abuse': [
    '1 MiB attack',
    '422 size:',
    'round trip, 1 MiB upload included:',
    'same upload to a bare node:http server',
    'mock CPU per attack:',
    /^peak RSS with \d+ attacks at once/,
    /^peak RSS with \d+ attackers that never read/,
    'a byte every',
  ],
  journal: ['core.handle alone:', 'core.handle, the journal observing:', 'the journal:'],
  'bundle-size': ['minified:', 'evalkit/factories alike:'],
  startup: ['node -e 0', 'evalkit --version ', 'evalkit --help', 'evalkit --version / node -e 0:'],
  coverage: ['judged alone', 'judged, then counted'],
};

describe.concurrent('every bench in quick mode ends and prints its figures', () => {
  for (const [bench, labels] of Object.entries(benches))
    it(
      bench,
      async ({ expect }) => {
        const ran = await runQuick(bench);
        expect(ran.hung, `${bench} still ran after ${hangLimitMs / 1000} s; stderr: ${ran.stderr}`).toBe(false);
        expect({ code: ran.code, signal: ran.signal }, ran.stderr).toEqual({ code: 0, signal: null });
        expectFigures(expect, ran.stdout, labels);
      },
      hangLimitMs + 10_000,
    );

  it('a quick-mode value it does not know is refused: exit 2, one line naming the variable', async ({ expect }) => {
    const child = startChild(
      '/usr/bin/env',
      ['EVALKIT_BENCH_QUICK=yes', process.execPath, 'dist/bench/journal.js'],
      root,
    );
    const { code } = await child.exited;
    expect(code).toBe(2);
    expect(child.stderr()).toMatch(/^EVALKIT_BENCH_QUICK must be 1 \(quick mode\) or 0 \(a full run\), not "yes"\n$/);
    expect(child.stdout()).toBe('');
  });
});

it('knows every bench the package runs', () => {
  const { scripts } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
    scripts: Record<string, string>;
  };
  const run = Object.entries(scripts)
    .filter(([name]) => name.startsWith('bench:'))
    .map(([, script]) => /dist\/bench\/([\w-]+)\.js/.exec(script)?.[1]);
  expect(run.sort()).toEqual(Object.keys(benches).sort());
});
