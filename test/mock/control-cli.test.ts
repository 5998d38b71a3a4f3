import { describe, expect, it } from 'vitest';
import { startCli } from '../helpers/cli.js';

describe('evalkit mock: the control room flags (in process)', () => {
  it('prints the control room URL at the root whatever --base-path, and keeps --journal-size requests', async () => {
    const mock = startCli(['mock', '--port', '0', '--base-path', '/api', '--journal-size', '2', '--quiet']);
    const [, url, room] = (await mock.waitFor(
      /listening on (http:\/\/\S+)\ncontrol room: (http:\/\/\S+)\n/,
      10_000,
    )) as unknown as [string, string, string];
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
});
