import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { build } from '../../generators/factories.js';
import { bodySchema, mapStrings } from '../../http/personal-values.js';
import { validate } from '../../schemas/validators/index.js';
import { runCli } from '../helpers/cli.js';
import { removeTempDirs, tempDir } from '../helpers/temp-dirs.js';
import { journal, mockServers, openEvents, post, startMockCli } from './control-helpers.js';

afterAll(removeTempDirs);
const start = mockServers();

/** What a frontend sends: a fetch by id (its user's name in the query), a create, one the mock refuses (422). */
const id = '6637c0a25368ef07b03a64cd';
const create = { ...build('CreateEvaluationRequest', { seed: 8 }), lm_providers_keys: { OPENAI_API_KEY: 'sk-x-7ac1' } };
const { testset_id: _testset, ...missingTestset } = create;

async function frontend(url: string): Promise<void> {
  expect((await fetch(`${url}/human-evaluations/${id}`)).status).toBe(200);
  expect((await post(url, create)).status).toBe(200);
  // pydantic 2 echoes the input it refuses: for a missing field, the whole body.
  expect((await post(url, missingTestset, { prefer: 'era=0.19' })).status).toBe(422);
}

/** Every personal value a clear journal's entries hold, by the schemas' marks. */
function personalValues(entries: Array<Record<string, any>>): string[] {
  const values = new Set<string>([id]);
  const collect = (schema: Parameters<typeof mapStrings>[0], body: unknown) =>
    mapStrings(schema, body, (text, kind) => (kind === 'personal' && values.add(text), text));
  for (const entry of entries) {
    if (entry.method === 'POST') collect(bodySchema('CreateEvaluationRequest'), entry.request.body);
    if (entry.status === 200)
      collect(
        entry.method === 'GET' ? bodySchema('HumanEvaluation') : bodySchema('Evaluation', true),
        entry.response.body,
      );
  }
  return [...values].filter((value) => value.length >= 4);
}

describe('evalkit mock --pseudonymize: the journal export without personal data, still coherent', () => {
  it('no original in the export or the event stream in any form; ids agree across path, bodies and curl', async () => {
    const clear = await start();
    await frontend(clear.url);
    const originals = personalValues(await journal(clear.origin));
    expect(originals.length).toBeGreaterThan(10);

    const key = join(tempDir(), 'pseudonym-key');
    const { mock, api, room } = await startMockCli(['--quiet', '--pseudonymize', '--pseudonym-key', key]);
    const origin = new URL(room).origin;
    const events = await openEvents(`${origin}/__evalkit/events`);
    await frontend(api);
    const streamed = await events.next((event) => event.event === 'message' && JSON.parse(event.data).status === 422);
    events.close();
    const entries = await journal(origin);
    const text = JSON.stringify({ requests: entries }) + events.events.map((event) => event.data).join('\n');
    for (const original of originals)
      for (const form of [original, encodeURIComponent(original), Buffer.from(original).toString('base64')])
        expect(text, form).not.toContain(form);
    expect(streamed.data).not.toContain(create.app_id);

    const [refused, created, fetched] = entries as [Record<string, any>, Record<string, any>, Record<string, any>];
    const fakeId = fetched.path.split('/').pop() as string;
    expect(fakeId).toMatch(/^6637c0a2[0-9a-f]{16}$/);
    expect(fetched.response.body.id).toBe(fakeId);
    expect(fetched.curl).toContain(`/human-evaluations/${fakeId}'`);
    expect(validate('HumanEvaluation', fetched.response.body).valid).toBe(true);
    // The mock answers with the request's ids: the request's pseudonyms and the answer's agree.
    const fakeApp = created.request.body.app_id as string;
    expect(created.response.body[0].app_id).toBe(fakeApp);
    expect(created.curl).toContain(fakeApp);
    expect(validate('CreateEvaluationRequest', created.request.body).valid).toBe(true);
    expect(created.request.body.lm_providers_keys).toEqual({ OPENAI_API_KEY: '<PROVIDER_KEY>' });
    expect(refused.request.body.app_id).toBe(fakeApp);
    expect(JSON.stringify(refused.problems)).toContain(fakeApp);

    // The export replays, and a scan against the clear journal finds nothing in it.
    const folder = tempDir();
    const exported = join(folder, 'journal.json');
    writeFileSync(exported, JSON.stringify({ requests: entries }));
    const clearFile = join(tempDir(), 'clear.json');
    writeFileSync(clearFile, JSON.stringify({ requests: await journal(clear.origin) }));
    expect((await runCli(['fixtures', 'scan', folder, '--against', clearFile])).code).toBe(0);
    const replay = await runCli(['contract', '--base-url', clear.url, '--replay', exported]);
    expect(replay.code).toBe(0);
    expect(replay.stdout).toContain(`Replay of ${exported}: 3 replayed, 0 refused, 0 skipped`);
    mock.process.kill('SIGTERM');
    expect((await mock.exited).code).toBe(0);
  }, 30_000);

  it('--pseudonymize with --no-journal: exit 2, one line', async () => {
    const run = await runCli(['mock', '--pseudonymize', '--no-journal']);
    expect(run).toEqual({
      code: 2,
      stdout: '',
      stderr: 'evalkit mock: --pseudonymize rewrites the journal, and --no-journal keeps none: drop one\n',
    });
  });
});
