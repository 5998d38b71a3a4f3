import { readFileSync, writeFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import type { IncomingHttpHeaders } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exitCode, junitReport, runContract } from '../../contract/index.js';
import { githubAnnotations, githubStepSummary } from '../../contract/report/github.js';
import { defaultHumanEvaluationId } from '../../contract/run/fetch.js';
import { readTraffic } from '../../http/traffic.js';
import { startMockServer, type MockServer } from '../../mock/index.js';
import { runCli } from '../helpers/cli.js';
import { appCreateBody } from './app-requests.js';
import { json, startConformingServer, type Answer, type Context } from './conforming-server.js';

/** The frontend's own credentials: they reach the mock, and must never leave evalkit again. */
const appToken = 'app-session-token-5f2c9e1a';
const providerKey = 'sk-app-provider-key-77d1b3';
/** The run's own credential, given with --header: the one a replay may send. */
const runToken = 'run-token-0a9b8c7d';

const createBody = (extra: Record<string, unknown> = {}) => appCreateBody(providerKey, extra);

let dir: string;
let journalFile: string;

/** The query the frontend's fetch carries: a parameter, and its own credential the replay must not send. */
const fetchQuery = `page=2&api_key=${appToken}`;

/**
 * What a frontend sends the mock: a fetch with a query, two creates (one naming a column), one answer a scenario
 * forced.
 */
async function frontendSession(mock: MockServer): Promise<void> {
  const headers = { authorization: `Bearer ${appToken}`, 'content-type': 'application/json' };
  const sent = [
    await fetch(`${mock.url}/human-evaluations/${defaultHumanEvaluationId}?${fetchQuery}`, { headers }),
    await fetch(`${mock.url}/evaluations`, { method: 'POST', headers, body: JSON.stringify(createBody()) }),
    await fetch(`${mock.url}/evaluations`, {
      method: 'POST',
      headers,
      body: JSON.stringify(createBody({ correct_answer_column: 'expected_answer' })),
    }),
    await fetch(`${mock.url}/human-evaluations/${defaultHumanEvaluationId}`, {
      headers: { ...headers, prefer: 'code=503' },
    }),
  ];
  expect(sent.map((answer) => answer.status)).toEqual([200, 200, 200, 503]);
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'evalkit-replay-'));
  const mock = await startMockServer({ port: 0 });
  try {
    await frontendSession(mock);
    journalFile = join(dir, 'journal.json');
    await writeFile(journalFile, await (await fetch(`${mock.url}/__evalkit/requests`)).text());
  } finally {
    await mock.close();
  }
});
afterAll(() => rm(dir, { recursive: true, force: true }));

/** A deployment that records every request it gets, refusing what `refuse` says with FastAPI's 422. */
async function deployment(refuse: (context: Context) => boolean) {
  const received: Array<{ url?: string; headers: IncomingHttpHeaders; body?: Record<string, unknown> }> = [];
  const server = await startConformingServer({
    auth: { name: 'authorization', value: `Bearer ${runToken}` },
    raw: (req) => {
      received.push({ url: req.url, headers: req.headers });
      return false;
    },
    rewrite: (answer: Answer, context: Context) => {
      const last = received[received.length - 1];
      if (last && context.request) last.body = context.request;
      if (!refuse(context)) return answer;
      return json(422, { detail: [{ loc: ['body', 'correct_answer_column'], msg: 'extra fields not permitted' }] });
    },
  });
  return { server, received };
}

/**
 * A `proxy --record` folder (`name`, under the test's folder) whose requests.jsonl holds these creates, each answered
 * 200: its body as recorded (an object, or the text of one the proxy could not parse) and its Content-Type.
 */
async function recordedCreates(name: string, creates: Array<{ body: unknown; contentType?: string }>) {
  const folder = join(dir, name);
  await mkdir(folder, { recursive: true });
  const lines = creates.map(({ body, contentType = 'application/json' }) =>
    JSON.stringify({
      method: 'POST',
      path: '/evaluations',
      query: '',
      status: 200,
      request: { headers: { 'content-type': contentType }, body, body_truncated: false },
    }),
  );
  await writeFile(join(folder, 'requests.jsonl'), `${lines.join('\n')}\n`);
  return folder;
}

/** `evalkit contract` replaying `source` to `url` with the deployment's credential: the arguments every run shares. */
function replayArgs(url: string, source = journalFile): string[] {
  return ['contract', '--base-url', url, '--replay', source, '--header', `Authorization: Bearer ${runToken}`];
}

async function replay(url: string, source = journalFile) {
  const reportJson = join(dir, `report-${Math.random().toString(36).slice(2)}.json`);
  const reportHtml = reportJson.replace(/\.json$/, '.html');
  const reportJunit = reportJson.replace(/\.json$/, '.xml');
  const run = await runCli([
    ...replayArgs(url, source),
    '--report-json',
    reportJson,
    '--report-html',
    reportHtml,
    '--report-junit',
    reportJunit,
  ]);
  const files = [reportJson, reportHtml, reportJunit].map((file) => readFileSync(file, 'utf8'));
  return {
    ...run,
    json: JSON.parse(files[0] as string) as Record<string, unknown>,
    outputs: [run.stdout, run.stderr, ...files],
  };
}

describe('evalkit contract --replay: the requests a frontend sent the mock, against a deployment', () => {
  it('a deployment that refuses one of them: exit 1, the request named with its curl', async () => {
    const { server, received } = await deployment((context) => context.request?.correct_answer_column !== undefined);
    try {
      const run = await replay(server.url);
      expect(run.code).toBe(1);
      expect(run.stdout).toContain(
        'FAIL a request your app sends is refused: POST /evaluations answered 422 (the mock answered 200)',
      );
      expect(run.stdout).toMatch(/reproduce: curl .*'Authorization: <AUTHORIZATION>'.*expected_answer/);
      expect(run.stdout).toContain(`Replay of ${journalFile}: 3 replayed, 1 refused, 1 skipped`);
      expect(run.stdout).toMatch(
        /^FAIL \(1 replayed request refused\): .*; replay: 3 replayed, 1 refused, 1 skipped;/m,
      );
      expect(run.stdout).toContain('its answer was forced by the mock scenario code=503');
      expect(run.json.replay).toMatchObject({ replayed: 3, skipped: [{ request: expect.stringMatching(/^GET /) }] });
      expect(received).toHaveLength(3);
      const [, , , html] = run.outputs as [string, string, string, string];
      expect(html).toMatch(/<section id="replay"><h2>Replay of .*: 3 replayed, 1 refused, 1 skipped<\/h2>/);
      expect(html).toContain('a request your app sends is refused: POST /evaluations answered 422');
      expect(run.json.verdict).toBe('FAIL');
      expect((run.json.replay as { refused: Array<{ message: string }> }).refused[0]?.message).toContain(
        'a request your app sends is refused: POST /evaluations answered 422',
      );
    } finally {
      await server.close();
    }
  });

  it('a refused request fails the JUnit report as it fails the exit code: run.replay, its curl', async () => {
    const { server } = await deployment((context) => context.request?.correct_answer_column !== undefined);
    try {
      const report = await runContract({
        baseUrl: server.url,
        headers: { Authorization: `Bearer ${runToken}` },
        replay: { source: journalFile, traffic: await readTraffic(journalFile) },
      });
      expect(exitCode(report)).toBe(1);
      const junit = junitReport(report);
      expect(junit).toContain(
        '<testcase name="run.replay" classname="run"><failure type="error" message="a request your app sends is ' +
          'refused: POST /evaluations answered 422 (the mock answered 200)">',
      );
      expect(junit).toMatch(
        /answered 422 \(the mock answered 200\)\nanswer: 422 .*extra fields not permitted.*\nreproduce: curl /,
      );
      expect(junit).not.toContain(runToken);
      // GitHub's annotations and step summary say it too.
      const annotations = githubAnnotations(report);
      expect(annotations).toMatch(
        /^::error title=run\.replay::a request your app sends is refused: POST \/evaluations answered 422 .*%0A/m,
      );
      expect(annotations).toContain('%0Areproduce: curl ');
      expect(githubStepSummary(report)).toContain("Replay: 1 of your app's requests refused");
      expect(annotations + githubStepSummary(report)).not.toContain(runToken);
    } finally {
      await server.close();
    }
  });

  it('a conforming deployment: exit 0; no credential from the journal sent or printed', async () => {
    const { server, received } = await deployment(() => false);
    try {
      const run = await replay(server.url);
      expect(run.code, run.stdout).toBe(0);
      expect(run.stdout).toContain('3 replayed, 0 refused, 1 skipped');
      // Sent as the app sent them: the fetch, then both creates, each with the run's header and a canary key.
      expect(received.map(({ body }) => body?.correct_answer_column ?? null)).toEqual([null, null, 'expected_answer']);
      // The fetch with its query, less the credential the recording kept only as a placeholder.
      expect(received[0]?.url).toBe(`/human-evaluations/${defaultHumanEvaluationId}?page=2`);
      for (const { headers, body } of received) {
        expect(headers.authorization).toBe(`Bearer ${runToken}`);
        expect(headers.prefer).toBeUndefined();
        if (body) expect(body.lm_providers_keys).toEqual({ OPENAI_API_KEY: expect.stringMatching(/^evalkit-canary-/) });
      }
      const sent = JSON.stringify(received);
      for (const secret of [appToken, providerKey, '<PROVIDER_KEY>', '<AUTHORIZATION>'])
        expect(sent).not.toContain(secret);
      for (const output of run.outputs)
        for (const secret of [appToken, providerKey, runToken]) expect(output).not.toContain(secret);
    } finally {
      await server.close();
    }
  });

  it('a create body recorded as JSON text: sent with a canary, never its key; other text withheld', async () => {
    // The shape requests.jsonl keeps for a body the proxy could not parse: the body as a string, the key in clear.
    const asText = JSON.stringify(createBody({ correct_answer_column: 'expected_answer' }), null, 1);
    const notJson = `${JSON.stringify(createBody())},`;
    const folder = await recordedCreates('text-bodies', [{ body: asText }, { body: notJson }]);
    const { server, received } = await deployment((context) => context.request?.correct_answer_column !== undefined);
    try {
      const run = await replay(server.url, folder);
      expect(run.code, run.stdout).toBe(1);
      expect(run.stdout).toContain('1 replayed, 1 refused, 1 skipped');
      expect(run.stdout).toContain(
        'its body is text that is not JSON: a provider key in it could not be replaced by a canary, so it is not sent',
      );
      expect(received).toHaveLength(1);
      expect(received[0]?.body?.lm_providers_keys).toEqual({
        OPENAI_API_KEY: expect.stringMatching(/^evalkit-canary-/),
      });
      // The canary, as every report prints one.
      expect(run.stdout).toMatch(/reproduce: curl .*"OPENAI_API_KEY":"<PROVIDER_KEY>"/);
      expect(JSON.stringify(received)).not.toContain(providerKey);
      for (const output of run.outputs) expect(output).not.toContain(providerKey);
    } finally {
      await server.close();
    }
  });

  it('--read-only: the recorded creates are skipped, saying why, and only reads reach the deployment', async () => {
    const { server, received } = await deployment(() => false);
    try {
      const run = await runCli([...replayArgs(server.url), '--read-only']);
      expect(run.stdout).toContain('--read-only: a create request could create data');
      expect(received.length).toBeGreaterThan(0);
      expect(received.every(({ url }) => !url?.startsWith('/evaluations'))).toBe(true);
    } finally {
      await server.close();
    }
  });

  it('a body recorded from UTF-16 is sent again in UTF-8, without the charset that no longer holds', async () => {
    const types = ['application/json; charset=utf-16', 'application/json; charset="UTF-8"'];
    const folder = await recordedCreates(
      'utf-16',
      types.map((contentType) => ({ body: createBody(), contentType })),
    );
    const { server, received } = await deployment(() => false);
    try {
      const run = await replay(server.url, folder);
      expect(run.code, run.stdout).toBe(0);
      expect(received.map((request) => request.headers['content-type'])).toEqual([
        'application/json',
        'application/json; charset="UTF-8"',
      ]);
    } finally {
      await server.close();
    }
  });

  it('a deployment that refuses the fetch: its curl carries the query the app sent', async () => {
    const { server } = await deployment((context) => context.route === 'fetch');
    try {
      const run = await replay(server.url);
      expect(run.stdout).toContain(`refused: GET /human-evaluations/${defaultHumanEvaluationId}?page=2 answered 422`);
      expect(run.stdout).toMatch(/reproduce: curl -sS -i --compressed -X GET 'http:\/\/[^']*\?page=2'/);
      for (const output of run.outputs) expect(output).not.toContain(appToken);
    } finally {
      await server.close();
    }
  });

  it('a deployment that holds no evaluation of a fetched id: no refusal, the fetch skipped saying why', async () => {
    const missing = await startConformingServer({
      rewrite: (answer, context) => (context.route === 'fetch' ? json(404, { detail: 'Not Found' }) : answer),
    });
    try {
      const run = await replay(missing.url);
      expect(run.code, run.stdout).toBe(0);
      // Each recorded request counted once: the fetch the deployment holds nothing for is a skip, not also replayed.
      expect(run.stdout).toContain('2 replayed, 0 refused, 2 skipped');
      // ... and no finding of its own: --strict stays green for data the deployment does not hold.
      const checks = (run.json as { checks: Array<{ id: string; outcome: string }> }).checks;
      expect(checks.find((check) => check.id === 'fetch.status.success')?.outcome).not.toBe('failed');
      const strict = await runCli([...replayArgs(missing.url), '--strict']);
      expect(strict.code, strict.stdout).toBe(0);
      expect(run.stdout).toContain('the deployment holds no record of its ids (404 {"detail":"Not Found"})');
      expect(run.stdout).not.toContain('a request your app sends is refused');
      expect(run.json.replay).toMatchObject({ refused: [] });
    } finally {
      await missing.close();
    }
  });

  it('a journal recorded under --progress replays: progress paces answers, it forces none', async () => {
    const mock = await startMockServer({ port: 0, progress: 3000 });
    const journal = join(dir, 'progress-journal.json');
    try {
      await frontendSession(mock);
      const headers = { 'content-type': 'application/json', prefer: 'progress=2000' };
      expect((await fetch(`${mock.url}/human-evaluations/${defaultHumanEvaluationId}`, { headers })).status).toBe(200);
      await writeFile(journal, await (await fetch(`${mock.url}/__evalkit/requests`)).text());
    } finally {
      await mock.close();
    }
    const { server, received } = await deployment(() => false);
    try {
      const run = await replay(server.url, journal);
      expect(run.code, run.stdout).toBe(0);
      // The 503 forced by code= is skipped; the rest, the Prefer progress poll included, is sent.
      expect(run.stdout).toContain('4 replayed, 0 refused, 1 skipped');
      expect(received).toHaveLength(4);
    } finally {
      await server.close();
    }
  });

  it("a deployment that keeps rate-limiting the creates: their pace, not a refusal of the app's requests", async () => {
    const limited = await startConformingServer({
      rewrite: (answer, context) =>
        context.route === 'create' ? { status: 429, headers: { 'retry-after': '3600' }, body: '' } : answer,
    });
    try {
      const run = await replay(limited.url);
      expect(run.stdout).toContain('3 replayed, 0 refused, 1 skipped');
      expect(run.stdout).not.toContain('a request your app sends is refused');
    } finally {
      await limited.close();
    }
  });

  it('a recording with nothing to send: NOTHING VERIFIED naming the recording, not the deployment', async () => {
    const conforming = await startConformingServer({});
    const other = { method: 'GET', path: '/assets/app.js', query: '', status: 200 };
    const forced = { method: 'GET', path: `/human-evaluations/${defaultHumanEvaluationId}`, query: '', status: 503 };
    const recorded = (entries: object[]) => ({
      requests: entries.map((entry) => ({ ...entry, request: { headers: {}, body: null, body_truncated: false } })),
    });
    const empty = join(dir, 'no-operations.json');
    const skipped = join(dir, 'all-forced.json');
    await writeFile(empty, JSON.stringify(recorded([other])));
    await writeFile(skipped, JSON.stringify(recorded([{ ...forced, scenario: { code: 503 } }])));
    try {
      const none = await runCli(['contract', '--base-url', conforming.url, '--replay', empty]);
      expect(none.code).toBe(1);
      expect(none.stdout).toContain(
        `nothing verified: ${empty} holds no request of the two operations to replay ` +
          '(GET /human-evaluations/{evaluation_id}, POST /evaluations): save it after the app has sent them',
      );
      const all = await runCli(['contract', '--base-url', conforming.url, '--replay', skipped]);
      expect(all.code).toBe(1);
      expect(all.stdout).toContain(
        `nothing verified: every recorded request of the two operations in ${skipped} was skipped (why: under Replay)`,
      );
      for (const run of [none, all]) expect(run.stdout).not.toContain('no request got a complete answer');
    } finally {
      await conforming.close();
    }
  });

  it("recorded dot ids are skipped naming them; every request sent stays on the operations' paths", async () => {
    const folder = join(dir, 'dot-ids');
    await mkdir(folder, { recursive: true });
    const ids = ['..', '.', '%2e%2e', '%2E%2e', '.%2e', 'a%5C..', 'ok-id'];
    const lines = ids.map((id) =>
      JSON.stringify({ method: 'GET', path: `/human-evaluations/${id}`, query: '', status: 200, request: {} }),
    );
    await writeFile(join(folder, 'requests.jsonl'), `${lines.join('\n')}\n`);
    const { server, received } = await deployment(() => false);
    try {
      const base = `${server.url}/api`;
      const run = await runCli([...replayArgs(base, folder), '--report-json', join(dir, 'dots.json')]);
      expect(run.code).not.toBe(2);
      // Every request that reached the deployment is a fetch of one segment under the base path.
      expect(received.map(({ url }) => url)).toEqual(
        received.map(() => expect.stringMatching(/^\/api\/human-evaluations\/[^/]+$/)),
      );
      const report = JSON.parse(readFileSync(join(dir, 'dots.json'), 'utf8')) as {
        replay: { skipped: Array<{ request: string; reason: string }> };
      };
      const skipped = report.replay.skipped.map(({ reason }) => reason);
      for (const dot of ['.', '..'])
        expect(skipped).toContainEqual(expect.stringContaining(`evaluation_id '${dot}' cannot be sent`));
      // a%5C.. is one segment, sent encoded: a backslash is data, not a separator.
      expect(received.map(({ url }) => url)).toContainEqual('/api/human-evaluations/a%5C..');
    } finally {
      await server.close();
    }
  });

  it('a refused body past what a command line carries is named by where the recording holds it', async () => {
    const big = 'x'.repeat(5 * 1024 * 1024);
    const folder = await recordedCreates('big-body', [{ body: createBody({ correct_answer_column: big }) }]);
    const { server } = await deployment((context) => context.route === 'create');
    try {
      const run = await runCli(replayArgs(server.url, folder));
      expect(run.code).toBe(1);
      expect(run.stdout).not.toContain('x'.repeat(1000));
      expect(run.stdout.length).toBeLessThan(64 * 1024);
      expect(run.stdout).toContain(
        `--data-binary @body.json  # body.json: the body of ${join(folder, 'requests.jsonl')} line 1 (5.0 MiB, ` +
          'too long to print)',
      );
    } finally {
      await server.close();
    }
  });

  it('a record folder holding a file named for a dot id: one line naming the file', async () => {
    const folder = join(dir, 'dot-record');
    await mkdir(join(folder, 'human-evaluations'), { recursive: true });
    await writeFile(join(folder, 'human-evaluations', '...json'), '{}');
    await expect(readTraffic(folder)).rejects.toThrow(/human-evaluations\/\.\.\.json: its id '\.\.' cannot be sent/);
  });

  it('--human-evaluation-id . or ..: exit 2, one line naming it, nothing sent', async () => {
    const { server, received } = await deployment(() => false);
    try {
      for (const id of ['.', '..']) {
        const run = await runCli(['contract', '--base-url', `${server.url}/api`, '--human-evaluation-id', id]);
        expect(run.code).toBe(2);
        expect(run.stderr.trim().split('\n')).toEqual([expect.stringContaining(`--human-evaluation-id '${id}'`)]);
      }
      expect(received).toEqual([]);
    } finally {
      await server.close();
    }
  });

  it('a --replay path that cannot be read: exit 2, one line', async () => {
    const { code, stderr } = await runCli([
      'contract',
      '--base-url',
      'http://127.0.0.1:9',
      '--replay',
      join(dir, 'none'),
    ]);
    expect(code).toBe(2);
    expect(stderr).toBe(`evalkit contract: --replay: cannot read ${join(dir, 'none')} (ENOENT)\n`);
  });
});

/** What a staging deployment holds: its own records, none of the ids the mock made up. */
const staging = {
  evaluationId: '665f1e2a9b1c4d0012a3b4c5',
  app_id: '665f1e2a9b1c4d0012a3b4a1',
  testset_id: '665f1e2a9b1c4d0012a3b4e1',
  variant_ids: ['665f1e2a9b1c4d0012a3b4b1', '665f1e2a9b1c4d0012a3b4b2'],
  evaluators_configs: ['665f1e2a9b1c4d0012a3b4d1'],
};

/**
 * A deployment built like the real service: it holds only its own ids, answering 404 `{"detail": "App not found"}`
 * to a create naming another, and refusing with FastAPI's 422 (which quotes the input it got) what `refuse` says.
 */
async function realDeployment(refuse: (context: Context) => boolean = () => false) {
  const received: Array<{ url?: string; body?: Record<string, unknown> }> = [];
  const server = await startConformingServer({
    auth: { name: 'authorization', value: `Bearer ${runToken}` },
    knownIds: [staging.evaluationId],
    holds: {
      app_id: [staging.app_id],
      testset_id: [staging.testset_id],
      variant_ids: staging.variant_ids,
      evaluators_configs: staging.evaluators_configs,
    },
    raw: (req) => {
      received.push({ url: req.url });
      return false;
    },
    rewrite: (answer, context) => {
      const last = received[received.length - 1];
      if (last && context.request) last.body = context.request;
      if (!refuse(context)) return answer;
      const loc = ['body', 'correct_answer_column'];
      return json(422, { detail: [{ loc, msg: 'extra fields not permitted', input: context.request }] });
    },
  });
  return { server, received };
}

describe('evalkit contract --replay on a deployment that holds only its own ids', () => {
  const stagingBody = () => {
    const file = join(dir, 'staging-create.json');
    writeFileSync(
      file,
      JSON.stringify({
        app_id: staging.app_id,
        testset_id: staging.testset_id,
        variant_ids: staging.variant_ids,
        evaluators_configs: staging.evaluators_configs,
        rate_limit: { batch_size: 1, max_retries: 1, retry_delay: 1, delay_between_batches: 1 },
        lm_providers_keys: { OPENAI_API_KEY: providerKey },
      }),
    );
    return file;
  };
  const withIds = () => [
    '--human-evaluation-id',
    staging.evaluationId,
    '--create-body',
    stagingBody(),
    '--report-json',
    join(dir, `ids-${Math.random().toString(36).slice(2)}.json`),
  ];

  it('given its ids: each recorded request sent with them, the rest as the app sent it, said so; exit 0', async () => {
    const { server, received } = await realDeployment();
    try {
      const run = await runCli([...replayArgs(server.url), ...withIds()]);
      expect(run.code, run.stdout).toBe(0);
      expect(run.stdout).toContain('3 replayed, 0 refused, 1 skipped');
      expect(received[0]?.url).toBe(`/human-evaluations/${staging.evaluationId}?page=2`);
      const creates = received.slice(1).map(({ body }) => body);
      for (const body of creates)
        expect(body).toMatchObject({
          app_id: staging.app_id,
          testset_id: staging.testset_id,
          // The app sent one variant and one config: one of the deployment's each, the count kept.
          variant_ids: [staging.variant_ids[0]],
          evaluators_configs: staging.evaluators_configs,
          // What the app sent beside the ids, as it sent it.
          rate_limit: createBody().rate_limit,
        });
      expect(creates.map((body) => body?.correct_answer_column ?? null)).toEqual([null, 'expected_answer']);
      expect(run.stdout).toMatch(
        new RegExp(
          "replay: the mock's ids replaced by the deployment's .*: " +
            'the fetched id \\(evaluation_id\\) \\(1 request\\), app_id \\(2 requests\\)',
        ),
      );
      for (const output of [run.stdout, run.stderr]) expect(output).not.toContain(providerKey);
    } finally {
      await server.close();
    }
  });

  it('without them: the 404 App not found to a create is a skip naming the answer, never a refusal', async () => {
    const { server } = await realDeployment();
    try {
      const run = await replay(server.url);
      expect(run.stdout).not.toContain('a request your app sends is refused');
      expect(run.stdout).toContain('0 replayed, 0 refused, 4 skipped');
      expect(run.stdout).toContain(
        `nothing verified: the deployment holds none of the ids the requests in ${journalFile} name (404)`,
      );
      expect(run.stdout).toContain(
        'SKIP POST /evaluations: the deployment holds no record of its ids (404 {"detail":"App not found"})',
      );
      expect(run.stdout).toContain('pass --human-evaluation-id and --create-body with ids that exist there');
      expect(run.json.replay).toMatchObject({ refused: [] });
    } finally {
      await server.close();
    }
  });

  it("a refusal of a request's shape: exit 1, the deployment's answer shown in every report, redacted", async () => {
    const { server } = await realDeployment((context) => context.request?.correct_answer_column !== undefined);
    try {
      const reportJson = join(dir, 'refused-shape.json');
      const run = await runCli([...replayArgs(server.url), '--report-json', reportJson, ...withIds().slice(0, 4)]);
      expect(run.code).toBe(1);
      expect(run.stdout).toContain('FAIL a request your app sends is refused: POST /evaluations answered 422');
      expect(run.stdout).toMatch(
        /answer: 422 \{"detail":\[\{"loc":\["body","correct_answer_column"\],"msg":"extra fields/,
      );
      // FastAPI quotes the input: the canary in it is shown as the placeholder, never the key.
      expect(run.stdout).toMatch(/answer: 422 .*"OPENAI_API_KEY":"<PROVIDER_KEY>"/);
      const json = readFileSync(reportJson, 'utf8');
      expect(json).toContain('extra fields not permitted');
      expect(json).not.toMatch(/evalkit-canary-/);
      for (const output of [run.stdout, json])
        for (const secret of [providerKey, runToken]) expect(output).not.toContain(secret);
    } finally {
      await server.close();
    }
  });
});
