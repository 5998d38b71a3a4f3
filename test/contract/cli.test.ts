import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startConformingServer, type Behaviour, type RunningServer } from './conforming-server.js';
import { bankCreateBody, mutation } from './bank.js';
import { runCli } from '../helpers/cli.js';

/** These tests run the built CLI (`npm run build` first), as CI and users do. */
interface Outcome {
  code: number;
  stdout: string;
  stderr: string;
}

function cli(args: string[]): Promise<Outcome> {
  return runCli(['contract', ...args], { env: { ...process.env, NO_COLOR: '' } });
}

/** Tags balanced and nothing unescaped between them: enough to know a JUnit reader can parse the file. */
function isWellFormedXml(xml: string): boolean {
  const body = xml.replace(/^<\?xml[^>]*\?>\s*/, '');
  const stack: string[] = [];
  for (const token of body.split(/(<[^>]*>)/)) {
    if (!token.startsWith('<')) {
      if (/[<>]|&(?!(amp|lt|gt|quot|apos);)/.test(token)) return false;
      continue;
    }
    const tag = /^<(\/?)([\w-]+)((?:\s+[\w-]+="[^"<]*")*)\s*(\/?)>$/.exec(token);
    if (!tag) return false;
    const [, closing, name, , selfClosing] = tag;
    if (selfClosing) continue;
    if (closing) {
      if (stack.pop() !== name) return false;
    } else stack.push(name as string);
  }
  return stack.length === 0;
}

describe('evalkit contract (CLI)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'evalkit-cli-'));
  const servers: RunningServer[] = [];
  let conforming: RunningServer;
  const start = async (behaviour: Behaviour) => {
    const server = await startConformingServer(behaviour);
    servers.push(server);
    return server;
  };

  beforeAll(async () => {
    conforming = await start({});
  });
  afterAll(async () => {
    await Promise.all(servers.map((server) => server.close()));
    rmSync(dir, { recursive: true, force: true });
  });

  it('exits 0 against a conforming deployment and writes consistent JSON and JUnit reports', async () => {
    const json = join(dir, 'report.json');
    const junit = join(dir, 'report.xml');
    const { code, stdout, stderr } = await cli([
      '--base-url',
      conforming.url,
      '--report-json',
      json,
      '--report-junit',
      junit,
    ]);
    expect(code).toBe(0);
    expect(stderr).toContain(`evalkit contract: JSON report written to ${json}\n`);
    expect(stderr).toContain(`evalkit contract: JUnit report written to ${junit}\n`);
    expect(stdout).toContain('GET /human-evaluations/{evaluation_id}');
    expect(stdout).not.toMatch(/\u001b\[/);
    const report = JSON.parse(readFileSync(json, 'utf8')) as {
      summary: Record<string, number>;
      checks: Array<{ outcome: string; severity: string }>;
    };
    const count = (outcome: string) => report.checks.filter((check) => check.outcome === outcome).length;
    expect(report.summary).toEqual({
      passed: count('passed'),
      failed: count('failed'),
      warnings: 0,
      accepted: count('accepted'),
      skipped: count('skipped'),
    });
    expect(report.summary.failed).toBe(0);
    const xml = readFileSync(junit, 'utf8');
    expect(isWellFormedXml(xml)).toBe(true);
    expect(xml.match(/<testcase /g)?.length).toBe(report.checks.length);
    expect(xml.match(/<skipped /g)?.length ?? 0).toBe(report.summary.skipped);
  });

  it('exits 1 on an error-level failure, and the JUnit report escapes what the deployment sent', async () => {
    const server = await start(mutation('an HTML page instead of JSON'));
    const junit = join(dir, 'html.xml');
    const { code, stdout } = await cli(['--base-url', server.url, '--report-junit', junit]);
    expect(code).toBe(1);
    expect(stdout).toMatch(/FAIL fetch\.body\.json/);
    const xml = readFileSync(junit, 'utf8');
    expect(isWellFormedXml(xml)).toBe(true);
    expect(xml).toContain('&lt;!doctype html&gt;');
  });

  it('exits 0 on warnings alone, and 1 with --strict', async () => {
    const server = await start(mutation('GET answers the record of another id'));
    expect((await cli(['--base-url', server.url])).code).toBe(0);
    const strict = await cli(['--base-url', server.url, '--strict']);
    expect(strict.code).toBe(1);
    expect(strict.stdout).toMatch(/WARN fetch\.body\.id/);
  });

  it('exits 2 when nothing listens at the base URL', async () => {
    const gone = await startConformingServer();
    await gone.close();
    const { code, stdout } = await cli(['--base-url', gone.url, '--report-json', join(dir, 'gone.json')]);
    expect(code).toBe(2);
    expect(stdout).toMatch(/cannot be reached/);
    // The verdict line says why it is no contract failure: nothing was checked, and the exit code is 2, not 1.
    expect(stdout.trimEnd().split('\n').at(-1)).toMatch(
      /^FAIL \(unreachable: nothing was checked\): 0 passed, 0 failed/,
    );
    expect(JSON.parse(readFileSync(join(dir, 'gone.json'), 'utf8')).reachable).toBe(false);
  });

  it.each([
    [[], /--base-url is required/],
    [['--base-url', 'not a url'], /--base-url must be an absolute http\(s\) URL/],
    [['--base-url', 'ftp://host/'], /--base-url must be http or https/],
    [['--base-url', 'localhost:4010'], /got 'localhost:4010': did you mean 'http:\/\/localhost:4010'\?$/m],
    [['--base-url', 'admin:hunter2@staging:8000/api'], /did you mean 'http:\/\/<USERINFO>@staging:8000\/api'\?$/m],
    // What `http://127.0.0.1:$PORT` leaves when PORT is unset: URL reads it as port 80.
    [['--base-url', 'http://127.0.0.1:'], /--base-url has a ':' with no port after it, got 'http:\/\/127\.0\.0\.1:'/],
    [['--base-url', 'http://u:secret@[::1]:/api'], /no port after it, got 'http:\/\/<USERINFO>@\[::1\]:\/api'/],
    [['--base-url', 'http://127.0.0.1:9', '--timeout', 'soon'], /--timeout must be an integer/],
    [['--base-url', 'http://127.0.0.1:9', '--header', 'no colon here'], /--header must be "Name: value"/],
    [['--base-url', 'http://127.0.0.1:9', '--create-body', '/nonexistent/body.json'], /--create-body cannot read/],
    [
      ['--base-url', 'http://127.0.0.1:9', '--bogus'],
      /^evalkit contract: unknown option --bogus \(see evalkit contract --help\)/,
    ],
    [['--base-url', 'http://127.0.0.1:9', '--bse-url'], /unknown option --bse-url; did you mean --base-url\?/],
  ])('a usage error %j exits 2 with one line', async (args, message) => {
    const { code, stderr, stdout } = await cli(args as string[]);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(stderr).toMatch(message);
  });

  it('rejects a create body that is not a valid create request, naming the rule', async () => {
    const file = join(dir, 'bad-body.json');
    writeFileSync(file, JSON.stringify({ ...bankCreateBody, rate_limit: { batch_size: '10' } }));
    const { code, stderr } = await cli(['--base-url', conforming.url, '--create-body', file]);
    expect(code).toBe(2);
    expect(stderr).toMatch(/not a valid create request: .*\/rate_limit/);
  });

  it('never prints header values nor the canary secrets, even when the deployment echoes them', async () => {
    const server = await start(mutation('lm_providers_keys echoed in 422 errors'));
    const json = join(dir, 'echo.json');
    const body = join(dir, 'body.json');
    writeFileSync(
      body,
      JSON.stringify({ ...bankCreateBody, lm_providers_keys: { OPENAI_API_KEY: 'sk-real-user-key' } }),
    );
    const { code, stdout, stderr } = await cli([
      '--base-url',
      server.url,
      '--header',
      'Authorization: Bearer TOPSECRET',
      '--create-body',
      body,
      '--examples',
      '4',
      '--report-json',
      json,
    ]);
    expect(code).toBe(1);
    const everything = `${stdout}${stderr}${readFileSync(json, 'utf8')}`;
    expect(everything).toMatch(/create\.secrets\.echo/);
    expect(everything).not.toMatch(/TOPSECRET|sk-real-user-key|evalkit-canary-/);
  });

  it('ends a hanging deployment with a report, exit 1 and no stack trace', async () => {
    const server = await start(mutation('hangs past the timeout'));
    const { code, stdout, stderr } = await cli(['--base-url', server.url, '--timeout', '300']);
    expect(code).toBe(1);
    expect(stdout).toMatch(/FAIL create\.transport/);
    expect(stderr).not.toMatch(/\n\s+at /);
  });

  it('gives a report naming the nesting for a body nested a million levels deep, never a stack trace', async () => {
    const depth = 1_000_000;
    const server = await start({
      send: (res, answer, context) => {
        if (context.route !== 'fetch' || answer.status !== 200) return false;
        res
          .writeHead(200, { 'content-type': 'application/json' })
          .end(
            answer.body.replace(/"variant_ids":\[[^\]]*\]/, `"variant_ids":${'['.repeat(depth)}${']'.repeat(depth)}`),
          );
        return true;
      },
    });
    const { code, stdout, stderr } = await cli(['--base-url', server.url]);
    expect(code).toBe(1);
    expect(stdout).toMatch(
      new RegExp(
        String.raw`FAIL fetch\.body\.json  GET \/human-evaluations\/\w+: ` +
          String.raw`the success body is nested more than 1000 levels deep ` +
          String.raw`\(under \/variant_ids\/0\/0\/0\/…\): not checked further`,
      ),
    );
    expect(stderr).toBe('');
  });

  it('refuses a create body nested thousands of levels deep as a usage error', async () => {
    const file = join(dir, 'deep-body.json');
    writeFileSync(
      file,
      JSON.stringify(bankCreateBody).replace(/}$/, `,"extra":${'['.repeat(5000)}${']'.repeat(5000)}}`),
    );
    const { code, stderr } = await cli(['--base-url', conforming.url, '--create-body', file]);
    expect(code).toBe(2);
    expect(stderr).toMatch(/--create-body .* is nested more than 1000 levels deep \(under \/extra\/0\/0\/0\/…\)/);
  });
});
