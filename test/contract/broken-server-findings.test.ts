import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Report } from '../../contract/index.js';
import { runCli } from '../helpers/cli.js';
import { bankCreateBody } from './bank.js';
import { json, startConformingServer, type RunningServer } from './conforming-server.js';

/**
 * The broken server a developer fixes from the report: 500 on malformed JSON, a provider key echoed in one field of
 * each created record, and a crash (every connection cut, nothing listening after) on the text/plain probe.
 */
async function brokenServer(): Promise<RunningServer> {
  const server: RunningServer = await startConformingServer({
    raw: (req) => {
      if (req.method !== 'POST' || !req.headers['content-type']?.startsWith('text/plain')) return false;
      void server.close();
      return true;
    },
    rewrite: (answer, context) => {
      if (context.route === 'create' && context.request === undefined)
        return { status: 500, headers: { 'content-type': 'text/plain' }, body: 'Internal Server Error' };
      if (context.route === 'create' && answer.status === 200) {
        const key = Object.values(context.request?.lm_providers_keys as Record<string, string>)[0];
        const records = JSON.parse(answer.body) as Array<Record<string, unknown>>;
        return json(
          200,
          records.map((record, index) => (index === 0 ? { ...record, debug: { key } } : record)),
        );
      }
      return answer;
    },
  });
  return server;
}

describe('findings name the cause, against a small broken server', () => {
  const dir = mkdtempSync(join(tmpdir(), 'evalkit-broken-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('names the probe, the pointer of the echo once with its count, and what the crash left unevaluated', async () => {
    const server = await brokenServer();
    const body = join(dir, 'body.json');
    writeFileSync(body, JSON.stringify(bankCreateBody));
    const [json, junit, html, summary] = ['report.json', 'report.xml', 'report.html', 'summary.md'].map((name) =>
      join(dir, name),
    );
    const run = await runCli(
      [
        'contract',
        '--base-url',
        server.url,
        '--create-body',
        body,
        // One request at a time, so the crash comes after the malformed-JSON probe and before the property cases.
        '--concurrency',
        '1',
        '--examples',
        '10',
        '--report-json',
        json as string,
        '--report-junit',
        junit as string,
        '--report-html',
        html as string,
      ],
      { env: { ...process.env, NO_COLOR: '1', GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: summary } },
    );
    await server.close();
    expect(run.code).toBe(1);
    const report = JSON.parse(readFileSync(json as string, 'utf8')) as Report;
    const check = (id: string) => report.checks.find((candidate) => candidate.id === id);

    // The malformed-JSON probe's 500 names the probe and what was expected instead.
    const malformed =
      'POST /evaluations (probe: a body that is not valid JSON, its closing brace cut off) answered 500 ' +
      '(a server error) where a 4xx was expected: "Internal Server Error"';
    expect(check('create.status.5xx')?.findings).toEqual([malformed]);
    expect(run.stdout).toContain(`FAIL create.status.5xx  ${malformed}`);

    // The echo: one finding per place, its JSON pointer, counted over the answers that echoed it.
    const echo = 'POST /evaluations answers echo a submitted lm_providers_keys value in the body at /0/debug/key';
    expect(check('create.secrets.echo')?.findings).toEqual([`${echo} (2 times)`]);
    expect(run.stdout).toContain(`FAIL create.secrets.echo  ${echo} (2 times)`);

    // The crash: the report says after which request, with its curl; what came after is not evaluated, not passed.
    expect(report.stopped).toMatch(
      new RegExp(
        '^the deployment stopped answering after request \\d+ ' +
          '\\(POST /evaluations \\(probe: the valid body sent as text/plain, not JSON\\): ' +
          ".*\\. Request \\d+: curl .*-H 'Content-Type: text/plain'",
      ),
    );
    expect(run.stdout).toContain('Stopped: the deployment stopped answering after request');
    for (const id of [
      'create.properties.valid',
      'create.properties.invalid.5xx',
      'create.properties.invalid.rejected',
    ]) {
      expect(check(id)?.outcome, id).toBe('skipped');
      expect(check(id)?.message, id).toMatch(/^not evaluated: the deployment stopped answering after request \d+/);
      expect(run.stdout).toMatch(new RegExp(`SKIP ${id.replace(/\./g, '\\.')}  not evaluated: the deployment`));
    }
    expect(report.counterexamples).toEqual([]);

    // No word of evalkit's own history in any format.
    const unknownId = /an unknown id of another shape, the deployment's own shape/;
    for (const text of [
      run.stdout,
      ...[json, junit, html, summary].map((file) => readFileSync(file as string, 'utf8')),
    ]) {
      expect(text).not.toMatch(/\bissue \d|\(issue/i);
      expect(text).not.toMatch(unknownId);
    }
  });
});
