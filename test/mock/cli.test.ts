import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startMockServer } from '../../mock/index.js';
import { expectValid } from './helpers.js';
import { startCli } from '../helpers/cli.js';
import { builtCli } from './processes.js';
import { removeTempDirs, tempDir } from '../helpers/temp-dirs.js';

const { evalkit } = builtCli();
afterAll(removeTempDirs);

describe('evalkit mock (built CLI)', () => {
  it('prints its URL, answers both operations, logs one line per request, and exits 0 on SIGTERM', async () => {
    const mock = evalkit('mock', '--port', '0', '--base-path', '/api');
    const [, url] = (await mock.waitFor(/listening on (http:\/\/127\.0\.0\.1:\d+\/api)\n/, 10_000)) as unknown as [
      string,
      string,
    ];
    const get = await fetch(`${url}/human-evaluations/abc`);
    expect(get.status).toBe(200);
    expectValid('HumanEvaluation', await get.json());
    const post = await fetch(`${url}/evaluations`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{}',
    });
    expect(post.status).toBe(422);
    mock.process.kill('SIGTERM');
    expect(await mock.exited).toEqual({ code: 0, signal: null });
    expect(mock.stderr()).toMatch(/^GET \/api\/human-evaluations\/abc 200 [\d.]+ms$/m);
    expect(mock.stderr()).toMatch(/^POST \/api\/evaluations 422 /m);
  }, 20_000);

  it('stays quiet with --quiet and stops on SIGINT', async () => {
    // A process: an empty stderr must hold for all the process writes, not only what goes through the CLI's io.
    const mock = evalkit('mock', '--port', '0', '--quiet');
    const [, url] = (await mock.waitFor(/listening on (http:\/\/\S+)\n/, 10_000)) as unknown as [string, string];
    expect((await fetch(`${url}/human-evaluations/abc`)).status).toBe(200);
    mock.process.kill('SIGINT');
    expect((await mock.exited).code).toBe(0);
    expect(mock.stderr()).toBe('');
  }, 20_000);

  it('exits promptly on SIGTERM while an answer waits out a long latency', async () => {
    const mock = startCli(['mock', '--port', '0', '--quiet']);
    const [, url] = (await mock.waitFor(/listening on (http:\/\/\S+)\n/, 10_000)) as unknown as [string, string];
    const pending = fetch(`${url}/human-evaluations/abc`, { headers: { Prefer: 'latency=60000' } }).catch(
      (error: Error) => error,
    );
    await new Promise((resolve) => setTimeout(resolve, 200));
    mock.process.kill('SIGTERM');
    expect((await mock.exited).code).toBe(0);
    expect(await pending).toBeInstanceOf(Error);
  }, 20_000);

  it('exits 2 (cannot run) naming the address when the port is taken', async () => {
    const taken = await startMockServer({ port: 0 });
    try {
      // In process: the exit status of a command that returns 2 is cli/process.test.ts's.
      const mock = startCli(['mock', '--port', new URL(taken.url).port]);
      expect((await mock.exited).code).toBe(2);
      expect(mock.stderr()).toMatch(/cannot listen on 127\.0\.0\.1:\d+ \(EADDRINUSE\)/);
    } finally {
      await taken.close();
    }
  }, 20_000);

  it('refuses to start on an invalid fixture, naming file, field and reason, exit 2', async () => {
    const dir = tempDir('evalkit-cli-fixtures-');
    mkdirSync(join(dir, 'human-evaluations'));
    writeFileSync(join(dir, 'human-evaluations', 'x.json'), JSON.stringify({ id: 'x' }));
    const mock = startCli(['mock', '--port', '0', '--fixtures', dir]);
    expect((await mock.exited).code).toBe(2);
    expect(mock.stderr()).toContain(`${join(dir, 'human-evaluations', 'x.json')}: /app_id is required but missing`);
    expect(mock.stdout()).toBe('');
  }, 20_000);

  it('reports bad flags in one line, exit 2', async () => {
    for (const [args, message] of [
      [['--state', 'done'], /--state: scenario key 'state' accepts/],
      [['--latency', '10-5'], /--latency: /],
      [['--strict-ids'], /strict ids need a fixtures folder/],
      // The README's path in an installed project, typed in this checkout (test/pack: the other way round).
      [
        ['--fixtures', 'node_modules/evalkit/fixtures/mock'],
        /^evalkit mock: --fixtures: no folder node_modules\/evalkit\/fixtures\/mock here; did you mean fixtures\/mock /,
      ],
      [['--port', '70000'], /--port must be an integer from 0 to 65535/],
      [['--no-cors', '--cors-origin', 'http://x'], /contradict/],
    ] as Array<[string[], RegExp]>) {
      const mock = startCli(['mock', '--port', '0', ...args]);
      expect((await mock.exited).code).toBe(2);
      expect(mock.stderr()).toMatch(message);
    }
  });
});
