import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exitCode, runContract, type Report } from '../../contract/index.js';

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

/** Resolves once Prism says it listens; rejects if it exits first. */
function listening(child: ChildProcess): Promise<void> {
  return new Promise((resolve, reject) => {
    let output = '';
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (/Prism is listening/.test(output)) resolve();
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => reject(new Error(`prism exited with ${code}: ${output}`)));
  });
}

describe('runContract against prism mock serving the OpenAPI document', () => {
  const dir = mkdtempSync(join(tmpdir(), 'evalkit-prism-'));
  let prism: ChildProcess;
  let report: Report;

  beforeAll(async () => {
    const file = join(dir, 'openapi.yaml');
    // The built CLI renders the document (needs `npm run build`): openapi/document.ts reads package.json relative to dist/.
    writeFileSync(file, execFileSync(process.execPath, ['bin/evalkit.js', 'openapi', '--format', 'yaml']));
    const port = await freePort();
    prism = spawn(join(process.cwd(), 'node_modules/.bin/prism'), ['mock', file, '-h', '127.0.0.1', '-p', String(port)], { stdio: ['ignore', 'pipe', 'pipe'] });
    await listening(prism);
    report = await runContract({ baseUrl: `http://127.0.0.1:${port}`, timeoutMs: 5000 });
  }, 60_000);

  afterAll(() => {
    prism?.kill();
    rmSync(dir, { recursive: true, force: true });
  });

  it('exits 0: no error-level check fails', () => {
    const errors = report.checks.filter((check) => check.outcome === 'failed' && check.severity === 'error');
    expect(errors, JSON.stringify(errors, null, 2)).toEqual([]);
    expect(exitCode(report)).toBe(0);
  });

  it('validates the bodies Prism serves', () => {
    const outcome = (id: string) => report.checks.find((check) => check.id === id)?.outcome;
    expect(outcome('fetch.body.schema')).toBe('passed');
    expect(outcome('create.body.schema')).toBe('passed');
  });
});
