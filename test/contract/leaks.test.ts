import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exitCode, runContract, startContractProxy, type Report } from '../../contract/index.js';
import { Canaries } from '../../contract/run/canaries.js';
import { bankCreateBody } from './bank.js';
import { everyReportFormat } from './report-outputs.js';
import { runCli } from '../helpers/cli.js';
import { json, startConformingServer, type RunningServer } from './conforming-server.js';

/**
 * A deployment that echoes every credential it is sent, whole and in parts, into success bodies, 500 bodies and
 * headers, and writes terminal escape sequences and a forged PASS line into what it says.
 */
const forged = '\u001b[2J\u001b[H\u001b[32m\n  PASS create.status.5xx  forged\u001b[0m';

describe('nothing the user gave as a credential reaches any output', () => {
  const dir = mkdtempSync(join(tmpdir(), 'evalkit-leaks-'));
  let server: RunningServer;

  beforeAll(async () => {
    server = await startConformingServer({
      raw: (req, res) => {
        const authorization = req.headers.authorization ?? '';
        const [scheme, token = ''] = authorization.split(' ');
        const decoded = scheme === 'Basic' ? Buffer.from(token, 'base64').toString('utf8') : token;
        const echoed = {
          token,
          decoded,
          password: decoded.split(':')[1],
          apiKey: req.headers['x-api-key'],
          note: forged,
        };
        if (req.method === 'POST') {
          res
            .writeHead(500, { 'content-type': 'text/plain', 'x-echo': token })
            .end(`crash ${JSON.stringify(echoed)} ${forged}`);
          return true;
        }
        const answer = json(200, { detail: echoed, [`field${forged}`]: 1 });
        res.writeHead(answer.status, { ...answer.headers, 'x-echo': token }).end(answer.body);
        return true;
      },
    });
  });
  afterAll(async () => {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it.each([
    [
      'the base URL password and query tokens, an API key header',
      (url: string) => [
        '--base-url',
        `${url.replace('http://', 'http://alice:pa55-w0rd@')}/?token=q-tok-123&Signature=sig-456&page=2`,
        '--header',
        'X-Api-Key: key-98765',
      ],
    ],
    [
      'a Bearer token, echoed without "Bearer "',
      (url: string) => ['--base-url', url, '--header', 'Authorization: Bearer tok-abcdef123'],
    ],
  ])('%s', async (_name, args) => {
    const files = {
      json: join(dir, 'report.json'),
      junit: join(dir, 'report.xml'),
      html: join(dir, 'report.html'),
      summary: join(dir, 'summary.md'),
    };
    writeFileSync(files.summary, '');
    process.env.GITHUB_STEP_SUMMARY = files.summary;
    const reports = [
      '--report-json',
      files.json,
      '--report-junit',
      files.junit,
      '--report-html',
      files.html,
      '--report-github',
    ];
    const run = await runCli(['contract', ...args(server.url), '--examples', '4', ...reports]);
    delete process.env.GITHUB_STEP_SUMMARY;
    const everything = [
      run.stdout,
      run.stderr,
      ...[files.json, files.junit, files.html, files.summary].map((file) => readFileSync(file, 'utf8')),
    ].join('\n');
    expect(everything).toMatch(/reproduce/);
    // The HTML page and GitHub's annotations and summary are there, built from the same redacted Report.
    expect(run.stdout).toMatch(/^::error title=/m);
    expect(readFileSync(files.summary, 'utf8')).toMatch(/^## evalkit contract: FAIL/);
    expect(readFileSync(files.html, 'utf8')).toMatch(/<h1>FAIL \(\d+ errors?\)<\/h1>/);
    expect(everything).not.toMatch(/pa55-w0rd|q-tok-123|sig-456|key-98765|tok-abcdef123|YWxpY2U6cGE1NS13MHJk/);
    // Control characters from the deployment are shown escaped: no escape byte, no forged line.
    expect(run.stdout).not.toContain('\u001b');
    expect(run.stdout).not.toMatch(/^\s*PASS create\.status\.5xx\s+forged/m);
    expect(run.stdout).toContain('\\x1b[2J');
    const report = JSON.parse(readFileSync(files.json, 'utf8')) as {
      target: string;
      checks: Array<{ reproduce?: string }>;
    };
    if (args('')[1]?.includes('alice')) {
      expect(report.target).toMatch(
        /^http:\/\/alice:<PASSWORD>@127\.0\.0\.1:\d+\/\?token=<TOKEN>&Signature=<SIGNATURE>&page=2$/,
      );
      expect(report.checks.find((check) => check.reproduce)?.reproduce).toMatch(
        /'http:\/\/alice:<PASSWORD>@127\.0\.0\.1:\d+\//,
      );
    }
  });
});

describe('nothing the proxy is given as a credential reaches its reports', () => {
  it('redacts the --target password and token query and every --header value, echoed or not', async () => {
    const server = await startConformingServer({
      raw: (req, res) => {
        const echoed = { authorization: req.headers.authorization, apiKey: req.headers['x-api-key'], url: req.url };
        res
          .writeHead(500, { 'content-type': 'text/plain', 'x-echo': String(req.headers['x-api-key']) })
          .end(`crash ${JSON.stringify(echoed)}`);
        return true;
      },
    });
    const target = `${server.url.replace('http://', 'http://alice:pa55-w0rd@')}/?token=q-tok-123`;
    const proxy = await startContractProxy({
      target,
      port: 0,
      headers: { 'X-Api-Key': 'key-98765', Authorization: 'Bearer tok-abcdef123' },
    });
    try {
      expect((await fetch(`${proxy.url}/human-evaluations/6637c0a25368ef07b03a64cd`)).status).toBe(500);
      const report = proxy.report();
      expect(report.verdict).toBe('FAIL');
      expect(report.checks.find((check) => check.id === 'fetch.status.5xx')?.outcome).toBe('failed');
      const everything = Object.values(everyReportFormat(report)).join('\n');
      expect(everything).toContain('<X-API-KEY>');
      expect(everything).not.toMatch(/pa55-w0rd|q-tok-123|key-98765|tok-abcdef123|YWxpY2U6cGE1NS13MHJk/);
    } finally {
      await proxy.close();
      await server.close();
    }
  });

  it('calls a proxy that saw no traffic NOTHING VERIFIED, exit 1', async () => {
    const server = await startConformingServer({});
    const proxy = await startContractProxy({ target: server.url, port: 0 });
    try {
      const report = proxy.report();
      expect(report.verdict).toBe('NOTHING VERIFIED');
      expect(report.headline).toMatch(/^nothing verified: no request of the two operations/);
      expect(exitCode(report)).toBe(1);
    } finally {
      await proxy.close();
      await server.close();
    }
  });
});

/** The ways a deployment may write a value back: JSON escapes, URL encodings and base64. */
const encodings: Record<string, (value: string) => string> = {
  'JSON-escaped, every character \\uXXXX': (value) =>
    [...value].map((char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`).join(''),
  'JSON-escaped, \\/ and some characters \\u00XX': (value) =>
    value.replace(/\//g, '\\/').replace(/[a-e:]/g, (char) => `\\u00${char.charCodeAt(0).toString(16).toUpperCase()}`),
  'URL-encoded, every byte %XX': (value) =>
    [...Buffer.from(value)].map((byte) => `%${byte.toString(16).toUpperCase().padStart(2, '0')}`).join(''),
  'URL-encoded as a form, + for spaces': (value) => encodeURIComponent(value).replace(/%20/g, '+'),
  base64: (value) => Buffer.from(value).toString('base64'),
  'base64 inside an encoded document': (value) => Buffer.from(JSON.stringify({ key: value })).toString('base64'),
};

/** Every credential a request carries: the header values and their parts, the query token, the provider keys. */
function credentialsIn(req: IncomingMessage, body: string): string[] {
  const authorization = req.headers.authorization ?? '';
  const [scheme = '', token = ''] = authorization.split(' ');
  const decoded = scheme === 'Basic' ? Buffer.from(token, 'base64').toString('utf8') : '';
  const query = new URL(req.url ?? '/', 'http://x').searchParams.get('token') ?? '';
  let keys: string[] = [];
  try {
    keys = Object.values(
      (JSON.parse(body) as { lm_providers_keys?: Record<string, string> } | null)?.lm_providers_keys ?? {},
    );
  } catch {
    // Not JSON: no provider keys to echo.
  }
  const apiKey = req.headers['x-api-key'];
  return [authorization, token, decoded, decoded.split(':')[1] ?? '', query, ...(apiKey ? [String(apiKey)] : [])]
    .concat(keys)
    .filter((value) => typeof value === 'string' && value.length > 0);
}

describe('a credential echoed in any encoding is found and redacted like the plain one', () => {
  it.each(Object.entries(encodings))('%s', async (_name, encode) => {
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const echoed = credentialsIn(req, Buffer.concat(chunks).toString('utf8')).map(encode);
        res
          .writeHead(500, { 'content-type': 'application/json', 'x-echo': encode(req.headers.authorization ?? '') })
          .end(JSON.stringify({ detail: 'crash' }).replace('crash', echoed.join(' ')));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const secrets = ['pa55/w0rd:x', 'q-tok/123 4', 'key-98765 ab/cd'];
    const [password, token] = secrets.map((secret) => encodeURIComponent(secret));
    try {
      const report = await runContract({
        baseUrl: `http://alice:${password}@127.0.0.1:${port}/?token=${token}`,
        headers: { 'X-Api-Key': secrets[2] as string },
        deployment: {
          createEvaluations: { ...bankCreateBody, lm_providers_keys: { OPENAI_API_KEY: 'sk-user-own-key/1234' } },
        },
        timeoutMs: 2_000,
      });
      const outputs = Object.values(everyReportFormat(report)).join('\n');
      expect(outputs).toContain('answered 500');
      const basic = Buffer.from(`alice:${secrets[0]}`).toString('base64');
      // Each word of a value too: a value found only in part leaves the rest in clear.
      const words = secrets.flatMap((secret) => secret.split(' ')).filter((word) => word.length >= 4);
      for (const secret of [...secrets, ...words, basic, 'sk-user-own-key/1234', ...canaryValues(report)]) {
        for (const form of [secret, encode(secret), JSON.stringify(encode(secret)).slice(1, -1)])
          expect(outputs, `${secret} as ${form}`).not.toContain(form);
      }
      // Canaries the run sent, echoed in that encoding, are echoes.
      expect(report.checks.find((check) => check.id === 'create.secrets.echo')?.outcome).toBe('failed');
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

/** The canary values a run sent: reports show them only as placeholders, so they are drawn again from the seed. */
function canaryValues(report: Report): string[] {
  expect(report.checks.length).toBeGreaterThan(0);
  const canaries = new Canaries('1');
  canaries.inject({ lm_providers_keys: { a: '', b: '', c: '', d: '', e: '', f: '' } });
  return [...canaries.all()];
}
