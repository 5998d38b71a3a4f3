import { mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { afterAll, describe, expect, it } from 'vitest';
import { generators } from '../../generators/index.js';
import { closeMockApp, createMockApp as startApp, FixtureError, type MockOptions } from '../../mock/index.js';
import { expectValid } from './helpers.js';
import { removeTempDirs, tempDir } from '../helpers/temp-dirs.js';

/** Every app made here, closed before its folder is removed: an open watcher would report the removal. */
const apps: ReturnType<typeof startApp>[] = [];
function createMockApp(options: MockOptions): ReturnType<typeof startApp> {
  const app = startApp(options);
  apps.push(app);
  return app;
}
afterAll(() => {
  apps.forEach(closeMockApp);
  removeTempDirs();
});

/** A fixtures folder holding the given files under human-evaluations/, plus a secret file beside it. */
function fixturesDir(files: Record<string, unknown>): string {
  const dir = tempDir('evalkit-fixtures-');
  mkdirSync(join(dir, 'human-evaluations'));
  writeFileSync(join(dir, 'secret.json'), JSON.stringify({ token: 'outside-the-folder' }));
  for (const [name, content] of Object.entries(files)) {
    writeFileSync(
      join(dir, 'human-evaluations', name),
      typeof content === 'string' ? content : JSON.stringify(content),
    );
  }
  return dir;
}

const known = {
  ...generators.HumanEvaluation(1, { id: 'known-1' }),
  status: 'EVALUATION_FINISHED',
  testset_name: 'from the fixture',
};

describe('--fixtures DIR', () => {
  const dir = fixturesDir({ 'known-1.json': known, 'notes.txt': 'ignored: not .json' });

  it('serves DIR/human-evaluations/<id>.json as it is', async () => {
    const res = await request(createMockApp({ fixturesDir: dir }))
      .get('/human-evaluations/known-1')
      .expect(200);
    expect(res.body).toEqual(known);
    expectValid('HumanEvaluation', res.body);
  });

  it('generates records for other ids, unless strict ids are on', async () => {
    const res = await request(createMockApp({ fixturesDir: dir }))
      .get('/human-evaluations/unknown')
      .expect(200);
    expect(res.body.id).toBe('unknown');
    const strict = createMockApp({ fixturesDir: dir, strictIds: true });
    expect((await request(strict).get('/human-evaluations/unknown').expect(404)).body).toEqual({
      detail: 'Evaluation not found',
    });
    await request(strict).get('/human-evaluations/known-1').expect(200);
  });

  it('never turns an id into a file path', async () => {
    const strict = createMockApp({ fixturesDir: dir, strictIds: true });
    for (const id of ['../secret', '..%2Fsecret', '../secret.json', 'known-1.json', '%2e%2e%2fsecret']) {
      const res = await request(strict).get(`/human-evaluations/${id}`);
      expect(res.status).toBe(404);
      expect(res.text).not.toContain('outside-the-folder');
    }
  });

  it('applies scenarios to fixtures: a state override, a code', async () => {
    const fixtured = createMockApp({ fixturesDir: dir });
    const res = await request(fixtured).get('/human-evaluations/known-1').set('Prefer', 'state=started').expect(200);
    expect(res.body).toEqual({ ...known, status: 'EVALUATION_STARTED' });
    await request(fixtured).get('/human-evaluations/known-1').set('Prefer', 'code=403').expect(403);
  });

  it('stops the start on an invalid file, naming every file, field and reason', () => {
    const { testset_id: _dropped, ...missing } = known;
    const bad = fixturesDir({
      'a.json': { ...missing, id: 'a' },
      'b.json': { ...known, id: 'b', revisions: [3], created_at: 'yesterday' },
      'c.json': '{"id": ',
      'd.json': { ...known, id: 'not-d' },
      // Past the 16 MiB a record file may hold: refused without being read to its end.
      'e.json': ' '.repeat(16 * 2 ** 20 + 1),
      'ok.json': { ...known, id: 'ok' },
    });
    let message = '';
    try {
      createMockApp({ fixturesDir: bad });
    } catch (error) {
      expect(error).toBeInstanceOf(FixtureError);
      message = (error as Error).message;
    }
    expect(message).toContain(`${join(bad, 'human-evaluations', 'a.json')}: /testset_id is required but missing`);
    expect(message).toContain(`${join(bad, 'human-evaluations', 'b.json')}: /revisions/0 must be string`);
    expect(message).toMatch(/b\.json: \/created_at must be/);
    expect(message).toMatch(/c\.json: not valid JSON/);
    expect(message).toMatch(/d\.json: \/id is 'not-d' but the file name says 'd'/);
    expect(message).toMatch(/e\.json: cannot be read \(larger than 16 MiB\)/);
    expect(message).not.toContain('ok.json');
  });

  it('stops the start when the folder is missing, and strict ids need a folder', () => {
    expect(() => createMockApp({ fixturesDir: join(tmpdir(), 'no-such-evalkit-dir') })).toThrow(
      /human-evaluations is not a readable folder/,
    );
    expect(() => createMockApp({ strictIds: true })).toThrow(/strict ids need a fixtures folder/);
  });
});
