import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { defaultHumanEvaluationId } from '../../contract/run/fetch.js';
import { startConformingServer } from '../contract/conforming-server.js';
import { appCreateBody } from '../contract/app-requests.js';
import { runCli } from '../helpers/cli.js';
import { RequestLog } from '../../proxy/recording.js';
import { containsSecret } from '../../http/redaction.js';
import { passageOf, type Passage } from '../../proxy/forward.js';
import { closeAll, judged, proxyTo } from './helpers.js';
import { removeTempDirs, tempDir } from '../helpers/temp-dirs.js';
import { runs } from '../properties/runs.js';

afterEach(closeAll);
afterAll(removeTempDirs);

const appToken = 'app-bearer-token-3e8a41';
const providerKey = 'sk-proxied-provider-key-92c4';

const createBody = appCreateBody(providerKey);

/** An app's two requests through `evalkit proxy --record DIR` to a conforming deployment; the folder it left. */
async function recordedSession(): Promise<{ dir: string; url: string; close(): Promise<void> }> {
  const target = await startConformingServer();
  const dir = tempDir();
  const watched = await proxyTo(target.url, { recordDir: dir });
  const headers = { authorization: `Bearer ${appToken}`, 'content-type': 'application/json' };
  await (await fetch(`${watched.proxy.url}/human-evaluations/${defaultHumanEvaluationId}`, { headers })).text();
  await (
    await fetch(`${watched.proxy.url}/evaluations`, { method: 'POST', headers, body: JSON.stringify(createBody) })
  ).text();
  await judged(watched, 2);
  await watched.proxy.close();
  return { dir, url: target.url, close: () => target.close() };
}

describe('evalkit proxy --record keeps the requests too, redacted', () => {
  it('one line per request: method, path, status, body; every credential a placeholder', async () => {
    const session = await recordedSession();
    try {
      const text = readFileSync(join(session.dir, 'requests.jsonl'), 'utf8');
      expect(text).not.toContain(appToken);
      expect(text).not.toContain(providerKey);
      const lines = text
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as Record<string, unknown>);
      expect(lines).toMatchObject([
        {
          method: 'GET',
          path: `/human-evaluations/${defaultHumanEvaluationId}`,
          status: 200,
          request: { headers: { authorization: '<AUTHORIZATION>' } },
        },
        {
          method: 'POST',
          path: '/evaluations',
          status: 200,
          request: {
            headers: { authorization: '<AUTHORIZATION>', 'content-type': 'application/json' },
            body: { ...createBody, lm_providers_keys: { OPENAI_API_KEY: '<PROVIDER_KEY>' } },
          },
        },
      ]);
    } finally {
      await session.close();
    }
  });

  it('keeps the query, each credential value a placeholder: no ?api_key= value in the file', async () => {
    const target = await startConformingServer();
    const dir = tempDir();
    try {
      const watched = await proxyTo(target.url, { recordDir: dir });
      const query = `page=2&api_key=${appToken}&access_token=${appToken}-2&X-Auth=${appToken}-3`;
      await (await fetch(`${watched.proxy.url}/human-evaluations/${defaultHumanEvaluationId}?${query}`)).text();
      await judged(watched, 1);
      await watched.proxy.close();
      const text = readFileSync(join(dir, 'requests.jsonl'), 'utf8');
      expect(text).not.toContain(appToken);
      expect(JSON.parse(text)).toMatchObject({
        path: `/human-evaluations/${defaultHumanEvaluationId}`,
        query: 'page=2&api_key=<API_KEY>&access_token=<ACCESS_TOKEN>&X-Auth=<X-AUTH>',
      });
    } finally {
      await target.close();
    }
  });

  it('the folder is a --replay input: both requests sent again, the provider key a canary', async () => {
    const session = await recordedSession();
    try {
      const run = await runCli(['contract', '--base-url', session.url, '--replay', session.dir]);
      expect(run.stdout).toContain(`Replay of ${session.dir}: 2 replayed, 0 refused, 0 skipped`);
      expect(run.code, run.stdout).toBe(0);
    } finally {
      await session.close();
    }
  });
});

describe('requests.jsonl has a cap', () => {
  const passage = (id: number): Passage => ({
    ...passageOf('GET', `/human-evaluations/he-${id}`, {}),
    status: 200,
  });

  it('keeps whole lines up to it, says once that it is full, then leaves the rest out silently', async () => {
    const dir = tempDir();
    const log = await RequestLog.open(dir, 300);
    const outcomes = [];
    for (let id = 0; id < 6; id++) outcomes.push(await log.keep(passage(id), (text) => text));
    await log.close();
    const lines = readFileSync(join(dir, 'requests.jsonl'), 'utf8').trim().split('\n');
    expect(Buffer.byteLength(lines.join('\n'))).toBeLessThanOrEqual(300);
    expect(lines.map((line) => (JSON.parse(line) as { path: string }).path)).toEqual(
      lines.map((_, id) => `/human-evaluations/he-${id}`),
    );
    const full = outcomes.filter((outcome) => outcome !== undefined);
    expect(full).toEqual([expect.stringMatching(/requests\.jsonl holds \d+ bytes, its cap of 300: later requests/)]);
    expect(outcomes.indexOf(full[0])).toBe(lines.length);
  });
});

describe('requests.jsonl redacts provider keys as the journal does', () => {
  it('a key under lm_providers_keys in any case, at any depth, is a placeholder, watched or not', async () => {
    const dir = tempDir();
    const log = await RequestLog.open(dir);
    const body = Buffer.from(
      JSON.stringify({
        ...createBody,
        LM_Providers_Keys: { A: 'unwatched-key-1' },
        extra: { lm_providers_keys: 'k2' },
      }),
    );
    const passage: Passage = {
      ...passageOf('POST', '/evaluations', { 'content-type': 'application/json' }),
      requestBody: { sent: body, content: { bytes: body } },
      status: 200,
    };
    // No redaction of the whole line: only the body's own walk can hide these keys.
    expect(await log.keep(passage, (text) => text)).toBeUndefined();
    await log.close();
    const line = JSON.parse(readFileSync(join(dir, 'requests.jsonl'), 'utf8')) as { request: { body: unknown } };
    expect(line.request.body).toMatchObject({
      LM_Providers_Keys: { A: '<PROVIDER_KEY>' },
      extra: { lm_providers_keys: '<PROVIDER_KEY>' },
    });
  });
});

describe('requests.jsonl keeps a body it cannot read as UTF-8 JSON decoded and redacted, or not at all', () => {
  /** A create body in another encoding, as an app may send it; the line it leaves, NULs dropped. */
  async function keptLine(bytes: Buffer, contentType = 'application/json') {
    const dir = tempDir();
    const log = await RequestLog.open(dir);
    const passage: Passage = {
      ...passageOf('POST', '/evaluations', { 'content-type': contentType }),
      requestBody: { sent: bytes, content: { bytes } },
      status: 200,
    };
    expect(await log.keep(passage, (text) => text)).toBeUndefined();
    await log.close();
    const text = readFileSync(join(dir, 'requests.jsonl'), 'utf8');
    return { text: text.replace(/\0|\\u0000/g, ''), line: JSON.parse(text) as { request: Record<string, unknown> } };
  }

  const text = JSON.stringify(createBody);
  const redacted = { ...createBody, lm_providers_keys: { OPENAI_API_KEY: '<PROVIDER_KEY>' } };
  const utf16be = (value: string) => Buffer.from(value, 'utf16le').swap16();
  const encodings: Record<string, Buffer> = {
    'UTF-16LE': Buffer.from(text, 'utf16le'),
    'UTF-16LE with a BOM': Buffer.from(`\uFEFF${text}`, 'utf16le'),
    'UTF-16BE with a BOM': utf16be(`\uFEFF${text}`),
    'UTF-8 with a BOM': Buffer.from(`\uFEFF${text}`),
  };

  for (const [name, bytes] of Object.entries(encodings))
    it(`${name}: decoded, the key a placeholder`, async () => {
      const { text: kept, line } = await keptLine(bytes);
      expect(kept).not.toContain(providerKey);
      expect(line.request).toMatchObject({ body: redacted, body_truncated: false });
    });

  it('UTF-16BE named by its charset: decoded too; bytes no charset reads: withheld, saying why', async () => {
    expect((await keptLine(utf16be(text), 'application/json; charset="UTF-16BE"')).line.request.body).toEqual(redacted);
    const odd = Buffer.concat([Buffer.from(text, 'utf16le'), Buffer.from([0x41])]);
    const withheld = await keptLine(odd);
    expect(withheld.text).not.toContain(providerKey);
    expect(withheld.line.request).toEqual({
      headers: { 'content-type': 'application/json' },
      body: `<body withheld: ${odd.length} bytes, not valid utf-16le>`,
      body_truncated: true,
    });
  });

  it('property: whatever the encoding and charset, the key never reaches the file, in any form', async () => {
    const charsets = ['utf-8', 'utf-16le', 'utf-16be', 'utf-16', 'latin1', 'x-unknown'];
    await fc.assert(
      fc.asyncProperty(
        fc.string({ minLength: 4, maxLength: 24 }).map((tail) => `sk-zq${tail}`),
        fc.constantFrom('utf8', 'utf16le', 'utf16be'),
        fc.boolean(),
        fc.option(fc.constantFrom(...charsets), { nil: undefined }),
        fc.string({ maxLength: 3 }),
        async (key, encoding, bom, charset, noise) => {
          const body = `${bom ? '\uFEFF' : ''}${JSON.stringify(appCreateBody(key))}${noise}`;
          const bytes =
            encoding === 'utf16be' ? utf16be(body) : Buffer.from(body, encoding === 'utf8' ? 'utf8' : 'utf16le');
          const { text: kept, line } = await keptLine(
            bytes,
            charset === undefined ? 'application/json' : `application/json; charset=${charset}`,
          );
          expect(containsSecret(kept, [key])).toBe(false);
          if (line.request.body_truncated === false)
            expect(line.request.body).toMatchObject({ app_id: expect.any(String) });
        },
      ),
      runs(60),
    );
  });
});
