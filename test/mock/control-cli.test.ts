import { describe, expect, it } from 'vitest';
import { runCli, startCli } from '../helpers/cli.js';
import { exchangeRaw } from './raw-http.js';
import { startMockCli } from './control-helpers.js';

describe('evalkit mock: the control room flags (in process)', () => {
  it('prints the control room URL at the root whatever --base-path, and keeps --journal-size requests', async () => {
    const { mock, api: url, room } = await startMockCli(['--base-path', '/api', '--journal-size', '2', '--quiet']);
    expect(room).toBe(`${new URL(url).origin}/__evalkit/`);
    for (const id of ['a', 'b', 'c']) await fetch(`${url}/human-evaluations/${id}`);
    const { requests } = (await (await fetch(`${room}requests`)).json()) as { requests: Array<{ path: string }> };
    expect(requests.map((entry) => entry.path)).toEqual(['/api/human-evaluations/c', '/api/human-evaluations/b']);
    mock.process.kill('SIGTERM');
    expect((await mock.exited).code).toBe(0);
  }, 20_000);

  it('keeps no journal with --no-journal', async () => {
    const mock = startCli(['mock', '--port', '0', '--no-journal', '--quiet']);
    const [, room] = (await mock.waitFor(/control room: (http:\/\/\S+)\n/, 10_000)) as unknown as [string, string];
    expect((await fetch(`${room}requests`)).status).toBe(404);
    mock.process.kill('SIGTERM');
    expect((await mock.exited).code).toBe(0);
  }, 20_000);

  it('reports contradicting or out-of-range journal flags in one line, exit 2', async () => {
    for (const [args, message] of [
      [['--no-journal', '--journal-size', '5'], /--no-journal and --journal-size contradict/],
      [['--journal-size', '0'], /--journal-size must be an integer from 1 to 100000, got '0'/],
    ] as Array<[string[], RegExp]>) {
      const mock = startCli(['mock', '--port', '0', ...args]);
      expect((await mock.exited).code).toBe(2);
      expect(mock.stderr()).toMatch(message);
      expect(mock.stdout()).toBe('');
    }
  }, 20_000);

  it('--allowed-hosts: names answered besides loopback; all with a warning; a bad one exit 2', async () => {
    const mock = startCli(['mock', '--port', '0', '--quiet', '--allowed-hosts', 'my-box.test,.lan.test']);
    const [, room] = (await mock.waitFor(/control room: (http:\/\/\S+)\n/, 10_000)) as unknown as [string, string];
    const status = async (host: string) =>
      (await exchangeRaw(room, `GET /__evalkit/requests HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`))[0]
        ?.status;
    expect(await status('a.lan.test')).toBe(200);
    expect(await status('my-box.test:80')).toBe(200);
    expect(await status('attacker.example')).toBe(403);
    expect(mock.stderr()).toBe('');
    mock.process.kill('SIGTERM');
    await mock.exited;

    const any = startCli(['mock', '--port', '0', '--quiet', '--allowed-hosts', 'all']);
    await any.waitFor(/control room: /, 10_000);
    expect(any.stderr()).toMatch(/warning: --allowed-hosts all: the control room .* answers any Host name/);
    any.process.kill('SIGTERM');
    await any.exited;

    for (const entry of ['my-box.test:4010', 'http://my-box.test', 'a b', ',']) {
      const bad = startCli(['mock', '--port', '0', '--allowed-hosts', entry]);
      expect((await bad.exited).code, entry).toBe(2);
      expect(bad.stderr(), entry).toMatch(/allowed host|--allowed-hosts: an empty host name/);
    }
  });

  it('--help says what --host 0.0.0.0 exposes and who reaches the control room', async () => {
    const help = (await runCli(['mock', '--help'])).stdout.replace(/\s+/g, ' ');
    expect(help).toContain('0.0.0.0 exposes the API to the network; the control room still answers only this machine');
    expect(help).toContain('--allowed-hosts');
  });
});
