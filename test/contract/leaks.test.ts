import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  exitCode,
  githubAnnotations,
  githubStepSummary,
  htmlReport,
  jsonReport,
  junitReport,
  startContractProxy,
  terminalReport,
} from '../../contract/index.js';
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
    expect(readFileSync(files.html, 'utf8')).toContain('<h1>FAIL</h1>');
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
      const outputs = [
        jsonReport(report),
        junitReport(report),
        htmlReport(report),
        githubAnnotations(report),
        githubStepSummary(report),
        terminalReport(report, { colour: false }),
      ];
      const everything = outputs.join('\n');
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
