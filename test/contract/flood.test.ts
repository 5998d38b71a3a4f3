import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../helpers/cli.js';
import { startFloodServer } from './flood-server.js';

interface Measured {
  code: number;
  stdout: string;
  stderr: string;
  maxRssMb: number;
}

/** The built CLI under GNU time, which reports the process's peak resident set size. */
function measuredCli(args: string[]): Promise<Measured> {
  return new Promise((resolve) => {
    execFile(
      '/usr/bin/time',
      ['-v', process.execPath, 'bin/evalkit.js', ...args],
      { cwd: projectRoot, maxBuffer: 512 * 1024 * 1024, env: { ...process.env, NO_COLOR: '1' } },
      (error, stdout, stderr) => {
        const rss = /Maximum resident set size \(kbytes\): (\d+)/.exec(stderr);
        resolve({
          code: error ? Number(error.code ?? 1) : 0,
          stdout,
          stderr,
          maxRssMb: rss ? Number(rss[1]) / 1024 : Number.NaN,
        });
      },
    );
  });
}

describe('a deployment that answers 2-4 MB to everything', () => {
  const dir = mkdtempSync(join(tmpdir(), 'evalkit-flood-'));
  let server: Awaited<ReturnType<typeof startFloodServer>>;
  beforeAll(async () => {
    server = await startFloodServer();
  });
  afterAll(async () => {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('gives small reports, capped excerpts with their full size, and stays under 300 MB RSS', async () => {
    const json = join(dir, 'flood.json');
    const junit = join(dir, 'flood.xml');
    const run = await measuredCli([
      'contract',
      '--base-url',
      server.url,
      '--examples',
      '20',
      '--report-json',
      json,
      '--report-junit',
      junit,
    ]);
    process.stdout.write(
      `flood: terminal ${run.stdout.length} bytes, JSON ${statSync(json).size} bytes, ` +
        `JUnit ${statSync(junit).size} bytes, peak RSS ${run.maxRssMb.toFixed(0)} MB\n`,
    );
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/FAIL fetch\.body\.schema/);
    expect(run.stdout).toMatch(/\(\d\.\d MiB in all\)/);
    expect(run.stdout.length).toBeLessThan(200_000);
    expect(statSync(json).size).toBeLessThan(1_000_000);
    expect(statSync(junit).size).toBeLessThan(1_000_000);
    expect(JSON.parse(readFileSync(json, 'utf8')).notes.at(-1).message).toMatch(/^and \d+ more undocumented fields$/);
    expect(run.maxRssMb).toBeLessThan(300);
    // A process answered 2-4 MB per request and measured under /usr/bin/time: its time grows with the machine's load.
  }, 90_000);
});
