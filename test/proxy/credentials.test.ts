import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { bankCreateBody } from '../contract/bank.js';
import { everyReportFormat } from '../contract/report-outputs.js';
import { closeAll, judged, plain, proxyTo, recorded, type Watched } from './helpers.js';
import { removeTempDirs, tempDir } from '../helpers/temp-dirs.js';

/** A hostile target that echoes the client's own credentials back, in every encoding a server may use. */

afterEach(closeAll);
afterAll(removeTempDirs);

const id = '6637c0a25368ef07b03a64cd';
const record = JSON.parse(readFileSync(join('fixtures/mock/human-evaluations', `${id}.json`), 'utf8')) as object;

/** How a server may write a string inside a JSON body: as it is, JSON-escaped, percent-encoded. */
const forms: Record<string, (value: string) => string> = {
  plain: (value) => value,
  'JSON-escaped': (value) =>
    [...value]
      .map((char, index) => (char === '/' ? '\\/' : index % 2 ? `\\u00${char.charCodeAt(0).toString(16)}` : char))
      .join(''),
  'URL-encoded': (value) => encodeURIComponent(value).replace(/-/g, '%2D'),
};

/** Every text the proxy writes anywhere: live lines, recording events, every report format, recorded files. */
function everyOutput(watched: Watched, dir?: string): Record<string, string> {
  const report = watched.proxy.report();
  const files = dir
    ? readdirSync(join(dir, 'human-evaluations')).map((name) =>
        readFileSync(join(dir, 'human-evaluations', name), 'utf8'),
      )
    : [];
  return {
    judgements: JSON.stringify(watched.judgements),
    recordings: JSON.stringify(watched.recordings),
    ...everyReportFormat(report),
    recorded: files.join('\n'),
  };
}

function expectNowhere(outputs: Record<string, string>, values: readonly string[]): void {
  for (const [where, text] of Object.entries(outputs))
    for (const value of values)
      for (const [form, encode] of Object.entries(forms))
        expect(text.includes(encode(value)), `${form} ${value} in ${where}`).toBe(false);
}

/**
 * A target that answers the fetch with the record and `echo` in an extra field, valid for the schema, and any other
 * id with a 500 quoting `echo`: one answer a recording would keep, one a report quotes.
 */
function echoing(echo: string) {
  return plain((req, res) => {
    const valid = req.url?.startsWith(`/human-evaluations/${id}`) ?? false;
    const body = JSON.stringify(valid ? { ...record, debug: 'ECHO' } : { detail: 'ECHO' }).replace('ECHO', echo);
    res.writeHead(valid ? 200 : 500, { 'content-type': 'application/json', 'x-debug': echo.replace(/\\/g, '') });
    res.end(body);
  });
}

const basic = Buffer.from('alice:pa55/word-basic').toString('base64');

/** Each kind of credential a client sends: the request, the values that must never show, the placeholder named. */
const credentials: Array<[string, { query?: string; headers: Record<string, string> }, string[], string]> = [
  [
    'Authorization: Bearer',
    { headers: { authorization: 'Bearer bearer-tok/en-8Zq' } },
    ['bearer-tok/en-8Zq'],
    '<AUTHORIZATION>',
  ],
  [
    'Authorization: Basic',
    { headers: { authorization: `Basic ${basic}` } },
    [basic, 'alice:pa55/word-basic', 'pa55/word-basic'],
    '<AUTHORIZATION>',
  ],
  ['Cookie', { headers: { cookie: 'theme=dark; sid=cookie-sess/ion-K7' } }, ['cookie-sess/ion-K7'], '<COOKIE>'],
  ['X-Api-Key', { headers: { 'x-api-key': 'api-key-val/ue-Q3' } }, ['api-key-val/ue-Q3'], '<X-API-KEY>'],
  [
    'X-Session-Token',
    { headers: { 'x-session-token': 'session-tok/en-W8' } },
    ['session-tok/en-W8'],
    '<X-SESSION-TOKEN>',
  ],
  [
    'a token query parameter',
    { query: '?access_token=query-tok%2Fen-P1', headers: {} },
    ['query-tok/en-P1'],
    '<ACCESS_TOKEN>',
  ],
];

describe("the client's credentials are secrets like --header values", () => {
  it.each(credentials)(
    '%s echoed in any form: in no output, the record not recorded, the proxy says why',
    async (_kind, sent, values, placeholder) => {
      for (const [form, encode] of Object.entries(forms)) {
        const target = await echoing(encode(values[0] as string));
        const dir = tempDir();
        const watched = await proxyTo(target.url, { recordDir: dir });
        for (const path of [`/human-evaluations/${id}`, '/human-evaluations/echo-in-an-error'])
          await fetch(`${watched.proxy.url}${path}${sent.query ?? ''}`, { headers: sent.headers });
        await judged(watched, 2);
        await recorded(watched, 1);
        await watched.proxy.close();
        expect(watched.recordings, form).toEqual([
          { label: `GET /human-evaluations/${id}`, refused: `the body carries a credential (${placeholder})` },
        ]);
        const outputs = everyOutput(watched, dir);
        expect(outputs.json, form).toContain(placeholder);
        expectNowhere(outputs, values);
        await closeAll();
      }
    },
  );
});

describe('provider keys in create bodies the proxy cannot read as plain JSON', () => {
  const key = 'sk-live-unplain/key-0042';
  const create = (body: unknown) => JSON.stringify({ ...bankCreateBody, lm_providers_keys: { OPENAI_API_KEY: body } });
  /** A target that answers every create with a 500 quoting the key, JSON-escaped. */
  const quoting = () =>
    plain((_req, res) => {
      res.writeHead(500, { 'content-type': 'application/json' });
      res.end(`{"detail":"bad key ${forms['JSON-escaped']?.(key)}"}`);
    });

  /** One create request with these headers and bytes through a proxy in front of the quoting server, judged. */
  async function postThroughProxy(headers: Record<string, string>, body: Buffer) {
    const target = await quoting();
    const watched = await proxyTo(target.url);
    await fetch(`${watched.proxy.url}/evaluations`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body,
    });
    await judged(watched, 1);
    return watched;
  }

  it.each([
    ['gzip-encoded', { 'content-encoding': 'gzip' }, gzipSync(create(key))],
    ['with a UTF-8 byte order mark', {}, Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(create(key))])],
  ])('a body %s: decoded, its keys watched, in no output', async (_name, headers, body) => {
    const watched = await postThroughProxy(headers, body);
    expect(watched.proxy.report().checks.find((check) => check.id === 'create.status.5xx')?.outcome).toBe('failed');
    const outputs = everyOutput(watched);
    expect(outputs.json).toContain('<PROVIDER_KEY>');
    expectNowhere(outputs, [key]);
  });

  it.each([
    ['that does not inflate', { 'content-encoding': 'gzip' }, Buffer.from(create(key))],
    ['in an unknown coding', { 'content-encoding': 'zstd' }, Buffer.from(create(key))],
    ['that is not JSON', {}, Buffer.from(`${create(key)},`)],
    ['that is not UTF-8', {}, Buffer.concat([Buffer.from(create(key)), Buffer.from([0xff])])],
  ])('a body %s: its bytes in no output, and the report says so', async (_name, headers, body) => {
    const watched = await postThroughProxy(headers, body);
    const report = watched.proxy.report();
    expect(report.checks.find((check) => check.id === 'create.status.5xx')?.reproduce).toContain(
      `<UNREADABLE BODY: ${body.length} bytes, kept out of every output>`,
    );
    expect(report.notes.map((note) => note.message)).toContainEqual(
      expect.stringMatching(/^POST \/evaluations: a request body that cannot be read \(.+\) is shown as a placeholder/),
    );
    expectNowhere(everyOutput(watched), ['sk-live-unplain']);
  });
});
