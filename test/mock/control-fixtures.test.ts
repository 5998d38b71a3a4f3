import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { generators } from '../../generators/index.js';
import { startMockServer, type MockServer } from '../../mock/index.js';
import { eventually, openEvents } from './control-helpers.js';
import { removeTempDirs, tempDir } from '../helpers/temp-dirs.js';

const servers: MockServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});
afterAll(removeTempDirs);

function record(id: string, testsetName: string): Record<string, unknown> {
  return { ...generators.HumanEvaluation(1, { id }), testset_name: testsetName };
}

function folder(): { dir: string; write(name: string, content: unknown): void } {
  const dir = tempDir('evalkit-reload-');
  mkdirSync(join(dir, 'human-evaluations'));
  const write = (name: string, content: unknown) =>
    writeFileSync(
      join(dir, 'human-evaluations', name),
      typeof content === 'string' ? content : JSON.stringify(content),
    );
  return { dir, write };
}

async function testsetName(url: string, id: string): Promise<unknown> {
  const res = await fetch(`${url}/human-evaluations/${id}`);
  expect(res.status).toBe(200);
  return ((await res.json()) as Record<string, unknown>).testset_name;
}

describe('--fixtures DIR reloads on change', () => {
  it('serves an edited or added file without a restart', async () => {
    const { dir, write } = folder();
    write('known.json', record('known', 'before'));
    const log: string[] = [];
    const server = await startMockServer({ port: 0, fixturesDir: dir, strictIds: true, log: (line) => log.push(line) });
    servers.push(server);
    expect(await testsetName(server.url, 'known')).toBe('before');
    expect((await fetch(`${server.url}/human-evaluations/added`)).status).toBe(404);

    write('known.json', record('known', 'after'));
    write('added.json', record('added', 'new file'));
    await eventually(async () => expect(await testsetName(server.url, 'known')).toBe('after'));
    await eventually(async () => expect(await testsetName(server.url, 'added')).toBe('new file'));
    expect(log).toContain(`evalkit mock: fixtures: reloaded 2 fixture(s) from ${dir}`);
    const status = (await (await fetch(`${new URL(server.url).origin}/__evalkit/fixtures`)).json()) as any;
    expect(status).toMatchObject({ dir, fixtures: 2, problems: [], failed_at: null });

    rmSync(join(dir, 'human-evaluations', 'added.json'));
    await eventually(async () => expect((await fetch(`${server.url}/human-evaluations/added`)).status).toBe(404));
  });

  it('keeps the previous set when a file breaks, logs and shows the problem, then recovers', async () => {
    const { dir, write } = folder();
    write('known.json', record('known', 'good'));
    const log: string[] = [];
    const server = await startMockServer({ port: 0, fixturesDir: dir, log: (line) => log.push(line) });
    servers.push(server);
    const origin = new URL(server.url).origin;
    const events = await openEvents(`${origin}/__evalkit/events`);
    try {
      write('known.json', '{"id": "known", ');
      write('other.json', { ...record('other', 'x'), revisions: [3] });
      const event = await events.next(
        (candidate) => candidate.event === 'fixtures' && JSON.parse(candidate.data).problems.length === 2,
      );
      const problems = JSON.parse(event.data).problems as string[];
      expect(problems[0]).toMatch(/known\.json: not valid JSON/);
      expect(problems[1]).toMatch(/other\.json: \/revisions\/0 must be string/);
      expect(await testsetName(server.url, 'known')).toBe('good');
      const status = (await (await fetch(`${origin}/__evalkit/fixtures`)).json()) as any;
      expect(status).toMatchObject({ fixtures: 1, problems });
      expect(status.failed_at).toEqual(expect.any(String));
      expect(log.join('\n')).toMatch(
        /reload refused, still serving the previous 1 fixture\(s\):\n {2}\S*known\.json: not valid JSON/,
      );

      write('known.json', record('known', 'fixed'));
      rmSync(join(dir, 'human-evaluations', 'other.json'));
      await eventually(async () => expect(await testsetName(server.url, 'known')).toBe('fixed'));
      await eventually(async () =>
        expect(((await (await fetch(`${origin}/__evalkit/fixtures`)).json()) as any).problems).toEqual([]),
      );
    } finally {
      events.close();
    }
  });

  it('says there is no folder when the mock has none', async () => {
    const server = await startMockServer({ port: 0 });
    servers.push(server);
    expect(await (await fetch(`${new URL(server.url).origin}/__evalkit/fixtures`)).json()).toEqual({
      dir: null,
      fixtures: 0,
      loaded_at: null,
      problems: [],
      failed_at: null,
    });
  });
});
