import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { exitCode, jsonReport } from '../../contract/index.js';
import { htmlReport } from '../../contract/report/html.js';
import { startMockServer, type MockServer } from '../../mock/index.js';
import { bankCreateBody, mutation } from '../contract/bank.js';
import { json, startConformingServer, type Behaviour, type RunningServer } from '../contract/conforming-server.js';
import { answer, closeAll, failedIds, judged, onClose, plain, postJson, proxyTo } from './helpers.js';
import { removeTempDirs, tempDir } from '../helpers/temp-dirs.js';

const knownIds = ['6637c0a25368ef07b03a64cd', '0192f4d2-8a1b-7c3d-9e4f-5a6b7c8d9e0f', 'single-model-test-demo'];
afterEach(closeAll);
afterAll(removeTempDirs);

async function mock(options: Parameters<typeof startMockServer>[0]): Promise<MockServer> {
  const server = await startMockServer({ port: 0, ...options });
  onClose(() => server.close());
  return server;
}

async function broken(behaviour: Behaviour): Promise<RunningServer> {
  const server = await startConformingServer(behaviour);
  onClose(() => server.close());
  return server;
}

const validCreate = { ...bankCreateBody, lm_providers_keys: { OPENAI_API_KEY: 'sk-live-proxy-test-0001' } };

describe('evalkit proxy in front of the mock', () => {
  it("reproduces a finding with the client's own headers, credentials as placeholders", async () => {
    const target = await mock({});
    const watched = await proxyTo(target.url);
    const token = 'client-token-proxy-0042';
    const res = await fetch(`${watched.proxy.url}/human-evaluations/6637c0a25368ef07b03a64cd`, {
      headers: { Prefer: 'code=503', Authorization: `Bearer ${token}`, 'X-Trace': 'trace-7' },
    });
    expect(res.status).toBe(503);
    await res.arrayBuffer();
    await judged(watched, 1);
    await watched.proxy.close();
    const curl = watched.proxy.report().checks.find((check) => check.id === 'fetch.status.5xx')?.reproduce ?? '';
    expect(curl).toContain("-H 'prefer: code=503'");
    expect(curl).toContain("-H 'x-trace: trace-7'");
    expect(curl).toContain("-H 'authorization: <AUTHORIZATION>'");
    expect(curl).not.toContain(token);
    expect(curl).not.toMatch(/-H '(host|connection):/);
  });

  it('forwards answers byte for byte, fails no check, records the fetched records, the mock replays them', async () => {
    const target = await mock({ fixturesDir: 'fixtures/mock', strictIds: true, now: '2026-01-02T03:04:05Z' });
    const dir = tempDir();
    const watched = await proxyTo(target.url, { recordDir: dir });
    const requests: Array<[string, RequestInit | undefined]> = [
      ...knownIds.map((id) => [`/human-evaluations/${id}`, undefined] as [string, undefined]),
      ['/human-evaluations/not-there', undefined],
      ['/evaluations', postJson(validCreate)],
      ['/evaluations', postJson({ app_id: 1 })],
      ['/elsewhere', undefined],
    ];
    for (const [path, init] of requests) {
      const direct = await answer(`${target.url}${path}`, init);
      const proxied = await answer(`${watched.proxy.url}${path}`, init);
      expect(proxied, path).toEqual(direct);
    }
    await judged(watched, requests.length * 1);
    await watched.proxy.close();
    const report = watched.proxy.report();
    expect(failedIds(watched.proxy)).toEqual([]);
    expect(exitCode(report, true)).toBe(0);
    expect(report.checks.find((check) => check.id === 'fetch.body.schema')?.outcome).toBe('passed');
    expect(report.checks.find((check) => check.id === 'create.body.per-variant')?.outcome).toBe('passed');
    expect(report.checks.find((check) => check.id === 'create.invalid.rejected')?.outcome).toBe('passed');
    expect(watched.proxy.traffic()).toMatchObject({ forwarded: 7, checked: 6, otherPaths: 1, recorded: 3, refused: 0 });

    expect(readdirSync(join(dir, 'human-evaluations')).sort()).toEqual(knownIds.map((id) => `${id}.json`).sort());
    const replay = await mock({ fixturesDir: dir, strictIds: true });
    for (const id of knownIds) {
      const original = JSON.parse((await answer(`${target.url}/human-evaluations/${id}`)).bytes.toString()) as unknown;
      const replayed = await answer(`${replay.url}/human-evaluations/${id}`);
      expect(replayed.status).toBe(200);
      expect(JSON.parse(replayed.bytes.toString())).toEqual(original);
    }
    expect((await answer(`${replay.url}/human-evaluations/not-there`)).status).toBe(404);
  });

  it('sets --header values on forwarded requests and never reports them', async () => {
    const target = await broken({ auth: { name: 'Authorization', value: 'Bearer proxy-token-42' } });
    const watched = await proxyTo(target.url, { headers: { Authorization: 'Bearer proxy-token-42' } });
    expect((await answer(`${watched.proxy.url}/human-evaluations/6637c0a25368ef07b03a64cd`)).status).toBe(200);
    await judged(watched, 1);
    expect(failedIds(watched.proxy)).toEqual([]);
    expect(jsonReport(watched.proxy.report())).not.toContain('proxy-token-42');
  });
});

describe('evalkit proxy in front of broken servers from the bank', () => {
  it('a schema violation: printed as it happens, an error in the report, forwarded as is, not recorded', async () => {
    const target = await broken(mutation('HumanEvaluation spells variants_revision_ids'));
    const dir = tempDir();
    const watched = await proxyTo(target.url, { recordDir: dir });
    const path = '/human-evaluations/6637c0a25368ef07b03a64cd';
    expect(await answer(`${watched.proxy.url}${path}`)).toEqual(await answer(`${target.url}${path}`));
    await judged(watched, 1);
    await watched.proxy.close();
    expect(watched.judgements[0]?.failed.map((check) => check.id)).toEqual(['fetch.body.schema']);
    expect(failedIds(watched.proxy)).toEqual(['fetch.body.schema']);
    expect(exitCode(watched.proxy.report())).toBe(1);
    expect(watched.recordings).toEqual([
      { label: `GET ${path}`, refused: 'the body fails the HumanEvaluation schema' },
    ]);
    expect(readdirSync(join(dir, 'human-evaluations'))).toEqual([]);
  });

  it.each([
    ['a success body that is not UTF-8 (Latin-1 bytes in a name)', 'fetch.body.json'],
    ['a success body starting with a UTF-8 byte order mark', 'fetch.body.bom'],
  ])('%s: judged as the contract client decodes it', async (name, id) => {
    const target = await broken(mutation(name));
    const watched = await proxyTo(target.url);
    const path = '/human-evaluations/6637c0a25368ef07b03a64cd';
    expect(await answer(`${watched.proxy.url}${path}`)).toEqual(await answer(`${target.url}${path}`));
    await judged(watched, 1);
    expect(failedIds(watched.proxy)).toEqual([id]);
  });

  it('an echoed lm_providers_keys value: create.secrets.echo, and the secret is in no report', async () => {
    const target = await broken(mutation('lm_providers_keys echoed in each created Evaluation'));
    const watched = await proxyTo(target.url);
    const proxied = await answer(`${watched.proxy.url}/evaluations`, postJson(validCreate));
    expect(proxied.bytes.toString()).toContain('sk-live-proxy-test-0001');
    await judged(watched, 1);
    const report = watched.proxy.report();
    expect(failedIds(watched.proxy)).toEqual(['create.secrets.echo']);
    for (const text of [jsonReport(report), htmlReport(report), JSON.stringify(watched.judgements)]) {
      expect(text).not.toContain('sk-live-proxy-test-0001');
    }
    expect(report.checks.find((check) => check.id === 'create.secrets.echo')?.reproduce).toContain('<PROVIDER_KEY>');
  });

  it('an invalid create request accepted with 200: a warning (exit 0, 1 strict), valid traffic passes', async () => {
    const target = await broken(mutation('invalid create requests accepted with 200'));
    const watched = await proxyTo(target.url);
    expect((await answer(`${watched.proxy.url}/evaluations`, postJson(validCreate))).status).toBe(200);
    expect(
      (await answer(`${watched.proxy.url}/evaluations`, postJson({ ...validCreate, rate_limit: { batch_size: '10' } })))
        .status,
    ).toBe(200);
    await judged(watched, 2);
    expect(watched.judgements.map((judgement) => judgement.failed.map((check) => check.id))).toEqual([
      [],
      ['create.invalid.rejected'],
    ]);
    expect(watched.judgements[1]?.failed[0]?.findings[0]).toMatch(
      /^POST \/evaluations: an invalid create request \(.*rate_limit.*\) was accepted with 200$/,
    );
    const report = watched.proxy.report();
    expect([exitCode(report), exitCode(report, true)]).toEqual([0, 1]);
  });

  it('never writes a secret: a valid record carrying a key posted earlier is refused', async () => {
    let posted = '';
    const target = await broken({
      rewrite: (reply, context) => {
        if (context.route === 'create')
          posted = String(
            (context.request?.lm_providers_keys as Record<string, string> | undefined)?.OPENAI_API_KEY ?? '',
          );
        return context.route === 'fetch' && reply.status === 200
          ? { ...reply, body: JSON.stringify({ ...JSON.parse(reply.body), debug: posted }) }
          : reply;
      },
    });
    const dir = tempDir();
    const watched = await proxyTo(target.url, { recordDir: dir });
    await answer(`${watched.proxy.url}/evaluations`, postJson(validCreate));
    await answer(`${watched.proxy.url}/human-evaluations/6637c0a25368ef07b03a64cd`);
    await judged(watched, 2);
    await watched.proxy.close();
    expect(watched.recordings.map((event) => ('refused' in event ? event.refused : event.recorded))).toEqual([
      'the body carries a credential (<PROVIDER_KEY>)',
    ]);
    expect(readdirSync(join(dir, 'human-evaluations'))).toEqual([]);
    expect(failedIds(watched.proxy)).toContain('create.secrets.echo');
  });
});

describe('evalkit proxy answers bad situations clearly', () => {
  it('a target that is down: 502 JSON naming the target and the cause; the run is unreachable (exit 2)', async () => {
    const gone = await plain(() => undefined);
    await closeAll();
    const watched = await proxyTo(`${gone.url}/api`);
    const reply = await answer(`${watched.proxy.url}/human-evaluations/x`);
    expect(reply.status).toBe(502);
    expect(reply.type).toBe('application/json');
    expect(JSON.parse(reply.bytes.toString())).toMatchObject({
      target: `${gone.url}/api`,
      cause: expect.stringContaining('ECONNREFUSED'),
    });
    await judged(watched, 1);
    expect(exitCode(watched.proxy.report())).toBe(2);
  });

  it('forwards a body over the cap whole and marks it unchecked', async () => {
    const huge = JSON.stringify({ padding: 'x'.repeat(1024 * 1024) });
    const target = await plain((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(huge));
    const watched = await proxyTo(target.url, {}, { maxBodyBytes: 64 * 1024 });
    const reply = await answer(`${watched.proxy.url}/human-evaluations/big`);
    expect(reply.bytes.toString()).toBe(huge);
    await judged(watched, 1);
    const report = watched.proxy.report();
    expect(watched.proxy.judge.overCap.fetch).toBe(1);
    expect(report.notes.map((note) => note.message)).toContain(
      'a request or answer over the 65536-byte cap was forwarded unchecked',
    );
    expect(report.checks.find((check) => check.id === 'fetch.body.schema')?.outcome).toBe('skipped');
    expect(failedIds(watched.proxy)).toEqual([]);
  });

  it('a target that hangs: 504 JSON and a transport error', async () => {
    const target = await plain(() => undefined);
    const watched = await proxyTo(target.url, { timeoutMs: 300 });
    const reply = await answer(`${watched.proxy.url}/human-evaluations/6637c0a25368ef07b03a64cd`);
    expect(reply.status).toBe(504);
    expect(JSON.parse(reply.bytes.toString())).toMatchObject({ target: target.url, cause: 'timeout' });
    await judged(watched, 1);
    expect(failedIds(watched.proxy)).toEqual(['fetch.transport']);
  });

  it('a keep-alive connection dropped as it is reused: the GET is sent again, no false alarm', async () => {
    const served = new WeakMap<object, number>();
    const body = JSON.stringify({ detail: 'Evaluation not found' });
    const target = await plain((req, res) => {
      const count = (served.get(req.socket) ?? 0) + 1;
      served.set(req.socket, count);
      // The second request on a connection finds it closing, as when the target's idle timeout wins the race.
      if (count > 1) return void req.socket.destroy();
      res.writeHead(404, { 'content-type': 'application/json' }).end(body);
    });
    const watched = await proxyTo(target.url);
    for (const attempt of [1, 2, 3])
      expect((await answer(`${watched.proxy.url}/human-evaluations/gone`)).status, `attempt ${attempt}`).toBe(404);
    await judged(watched, 3);
    expect(target.hits()).toBe(5);
    expect(failedIds(watched.proxy)).toEqual([]);
  });

  it('a 5xx from the target is forwarded as it is and is an error', async () => {
    const target = await broken({
      rewrite: (reply, context) => (context.route === 'fetch' ? json(503, { detail: 'maintenance' }) : reply),
    });
    const watched = await proxyTo(target.url);
    expect((await answer(`${watched.proxy.url}/human-evaluations/6637c0a25368ef07b03a64cd`)).status).toBe(503);
    await judged(watched, 1);
    expect(failedIds(watched.proxy)).toEqual(['fetch.status.5xx']);
  });
});
