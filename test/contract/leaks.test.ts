import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
        const echoed = { token, decoded, password: decoded.split(':')[1], apiKey: req.headers['x-api-key'], note: forged };
        if (req.method === 'POST') {
          res.writeHead(500, { 'content-type': 'text/plain', 'x-echo': token }).end(`crash ${JSON.stringify(echoed)} ${forged}`);
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
    ['the base URL password and query tokens, an API key header', (url: string) => ['--base-url', `${url.replace('http://', 'http://alice:pa55-w0rd@')}/?token=q-tok-123&Signature=sig-456&page=2`, '--header', 'X-Api-Key: key-98765']],
    ['a Bearer token, echoed without "Bearer "', (url: string) => ['--base-url', url, '--header', 'Authorization: Bearer tok-abcdef123']],
  ])('%s', async (_name, args) => {
    const files = { json: join(dir, 'report.json'), junit: join(dir, 'report.xml') };
    const run = await runCli(['contract', ...args(server.url), '--examples', '4', '--report-json', files.json, '--report-junit', files.junit]);
    const everything = [run.stdout, run.stderr, readFileSync(files.json, 'utf8'), readFileSync(files.junit, 'utf8')].join('\n');
    expect(everything).toMatch(/reproduce/);
    expect(everything).not.toMatch(/pa55-w0rd|q-tok-123|sig-456|key-98765|tok-abcdef123|YWxpY2U6cGE1NS13MHJk/);
    // Control characters from the deployment are shown escaped: no escape byte, no forged line.
    expect(run.stdout).not.toContain('\u001b');
    expect(run.stdout).not.toMatch(/^\s*PASS create\.status\.5xx\s+forged/m);
    expect(run.stdout).toContain('\\x1b[2J');
    const report = JSON.parse(readFileSync(files.json, 'utf8')) as { target: string; checks: Array<{ reproduce?: string }> };
    if (args('')[1]?.includes('alice')) {
      expect(report.target).toMatch(/^http:\/\/alice:<PASSWORD>@127\.0\.0\.1:\d+\/\?token=<TOKEN>&Signature=<SIGNATURE>&page=2$/);
      expect(report.checks.find((check) => check.reproduce)?.reproduce).toMatch(/'http:\/\/alice:<PASSWORD>@127\.0\.0\.1:\d+\//);
    }
  });
});
