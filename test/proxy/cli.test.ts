import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { startMockServer } from '../../mock/index.js';
import { mutation } from '../contract/bank.js';
import { startConformingServer } from '../contract/conforming-server.js';
import { projectRoot, runCli, startCli, type RunningCli } from '../helpers/cli.js';
import { startChild, type Child } from '../mock/processes.js';
import { answer, closeAll, plain } from './helpers.js';

/**
 * `evalkit proxy` runs in this process (startCli), `process.kill(signal)` standing for the signal; one test runs the
 * built CLI (`npm test` builds first) as a process, stopped by a real signal.
 */
const dir = mkdtempSync(join(tmpdir(), 'evalkit-proxy-cli-'));
const running: Array<Child | RunningCli> = [];
const closers: Array<() => Promise<void>> = [];

afterEach(async () => {
  for (const child of running.splice(0)) child.kill();
  await Promise.all(closers.splice(0).map((close) => close()));
  await closeAll();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The proxy listening, in this process or, `spawned`, as the built CLI's own process. */
async function proxyCli(args: string[], spawned = false): Promise<{ child: Child | RunningCli; url: string }> {
  const argv = ['proxy', '--port', '0', ...args];
  const child = spawned ? startChild(process.execPath, ['bin/evalkit.js', ...argv], projectRoot) : startCli(argv);
  running.push(child);
  const [, url] = await child.waitFor(/listening on (http:\/\/\S+),/, 15_000);
  return { child, url: url as string };
}

describe('evalkit proxy (CLI)', () => {
  it('in front of the mock: SIGINT prints the summary, writes the reports and recordings, exits 0', async () => {
    const mock = await startMockServer({ port: 0, fixturesDir: 'fixtures/mock', strictIds: true });
    closers.push(() => mock.close());
    const record = join(dir, 'recorded');
    const json = join(dir, 'mock.json');
    const html = join(dir, 'mock.html');
    const { child, url } = await proxyCli([
      '--target',
      mock.url,
      '--record',
      record,
      '--report-json',
      json,
      '--report-html',
      html,
    ]);
    expect((await answer(`${url}/human-evaluations/6637c0a25368ef07b03a64cd`)).status).toBe(200);
    await child.waitFor(/recorded .*6637c0a25368ef07b03a64cd\.json/, 5_000);
    child.process.kill('SIGINT');
    const { code } = await child.exited;
    expect(code).toBe(0);
    expect(child.stdout()).toContain('evalkit proxy stopped (SIGINT): forwarded 1 requests: 1 checked');
    // The report is the proxy's, not a `contract` run's: a reader of a CI log must not look for a contract step.
    expect(child.stdout()).toContain(`\nevalkit proxy ${mock.url}/\n`);
    expect(child.stdout()).not.toContain('evalkit contract');
    expect(child.stdout()).toMatch(/\d+ passed, 0 failed \(0 errors, 0 warnings\)/);
    const report = JSON.parse(readFileSync(json, 'utf8')) as {
      summary: { failed: number; passed: number };
      checks: unknown[];
      requests: number;
    };
    expect(Object.keys(report)).toEqual([
      'summary',
      'checks',
      'verdict',
      'strict',
      'insecure',
      'command',
      'target',
      'reachable',
      'notes',
      'counterexamples',
      'requests',
      'coverage',
      'durationMs',
    ]);
    expect(report.summary.failed).toBe(0);
    expect(report.requests).toBe(1);
    expect(readFileSync(html, 'utf8')).toContain('<h1>PASS</h1>');
    expect(readdirSync(join(record, 'human-evaluations'))).toEqual(['6637c0a25368ef07b03a64cd.json']);
  });

  it('in front of a broken server: the violation prints as it happens, SIGTERM exits 1', async () => {
    const server = await startConformingServer(mutation('required user_username missing'));
    closers.push(() => server.close());
    const { child, url } = await proxyCli([
      '--target',
      server.url,
      '--header',
      'Authorization: Bearer cli-secret-token',
    ]);
    expect((await answer(`${url}/human-evaluations/6637c0a25368ef07b03a64cd`)).status).toBe(200);
    await child.waitFor(
      new RegExp(
        String.raw`FAIL fetch\.body\.schema +GET /human-evaluations/6637c0a25368ef07b03a64cd: ` +
          String.raw`/user_username is required but missing \[error; §4\.1`,
      ),
      5_000,
    );
    child.process.kill('SIGTERM');
    const { code } = await child.exited;
    expect(code).toBe(1);
    expect(child.stdout()).toContain('evalkit proxy stopped (SIGTERM)');
    expect(child.stdout() + child.stderr()).not.toContain('cli-secret-token');
  });

  it('SIGTERM with exchanges open: ends, writes the report, and says how many exchanges the shutdown cut', async () => {
    // A process: a real signal, the exchanges it cuts, and the report written before the process exits.
    const silent = await plain(() => undefined);
    const json = join(dir, 'cut.json');
    const { child, url } = await proxyCli(['--target', silent.url, '--report-json', json], true);
    const open = ['a', 'b', 'c'].map((id) => fetch(`${url}/human-evaluations/${id}`).catch(() => 'cut'));
    for (let tries = 0; silent.hits() < 3 && tries < 500; tries++)
      await new Promise((resolve) => setTimeout(resolve, 10));
    child.process.kill('SIGTERM');
    const { code } = await child.exited;
    expect(await Promise.all(open)).toEqual(['cut', 'cut', 'cut']);
    expect(code).toBe(1);
    expect(child.stdout()).toMatch(
      /evalkit proxy stopped \(SIGTERM\): forwarded 3 requests: 0 checked, .*, 3 cut by the shutdown;/,
    );
    const report = JSON.parse(readFileSync(json, 'utf8')) as { notes: Array<{ operation: string; message: string }> };
    expect(report.notes).toContainEqual({
      operation: 'fetch',
      message: '3 exchanges open when the proxy stopped: cut, not judged',
    });
  });

  it('an echoed client credential: not recorded, the line names the header, never the value', async () => {
    const record = readFileSync('fixtures/mock/human-evaluations/6637c0a25368ef07b03a64cd.json', 'utf8');
    const echoing = await plain((req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(record.replace('"joy_questions"', JSON.stringify(req.headers['x-api-key'] ?? '')));
    });
    const recordDir = join(dir, 'echoed');
    const { child, url } = await proxyCli(['--target', echoing.url, '--record', recordDir]);
    await fetch(`${url}/human-evaluations/6637c0a25368ef07b03a64cd`, { headers: { 'X-Api-Key': 'cli-client-key-77' } });
    await child.waitFor(/not recorded: /, 5_000);
    child.process.kill('SIGINT');
    await child.exited;
    expect(child.stdout()).toContain(
      'not recorded: GET /human-evaluations/6637c0a25368ef07b03a64cd: the body carries a credential (<X-API-KEY>)\n',
    );
    expect(child.stdout() + child.stderr()).not.toContain('cli-client-key-77');
    expect(readdirSync(join(recordDir, 'human-evaluations'))).toEqual([]);
  });

  it('usage errors: no target, a target that is not http(s), a --record folder that cannot be made', async () => {
    expect(await runCli(['proxy'])).toMatchObject({ code: 2, stderr: 'evalkit proxy: --target is required\n' });
    expect(await runCli(['proxy', '--target', 'ftp://x'])).toMatchObject({
      code: 2,
      stderr: "evalkit proxy: --target must be http or https, got 'ftp:'\n",
    });
    const blocked = join(dir, 'file');
    writeFileSync(blocked, '');
    const result = await runCli(['proxy', '--target', 'http://127.0.0.1:9', '--port', '0', '--record', blocked]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(
      /^evalkit proxy: --record cannot create .*file\/human-evaluations \((ENOTDIR|EEXIST)\)\n$/,
    );
  });
});
