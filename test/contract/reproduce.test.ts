import { execFile } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runContract, type Report } from '../../contract/index.js';
import { junitReport } from '../../contract/report/junit.js';
import { terminalReport } from '../../contract/report/terminal.js';
import { gzipLabelledFetch } from './bank.js';
import { startConformingServer, type RunningServer } from './conforming-server.js';

/** Runs a reproduction as a user would paste it into a shell. */
function shell(command: string): Promise<string> {
  return new Promise((resolve, reject) =>
    execFile('sh', ['-c', command], { timeout: 10_000 }, (error, stdout) => (error ? reject(error) : resolve(stdout))),
  );
}

describe('every failed check comes with a curl command that reproduces it', () => {
  let server: RunningServer;
  let report: Report;
  const token = 'Bearer s3cr3t-token-value';

  beforeAll(async () => {
    // A deployment that crashes on rate_limit integers sent as strings, and echoes the provider keys it was sent.
    server = await startConformingServer({
      auth: { name: 'authorization', value: token },
      rewrite: (answer, context) => {
        const rateLimit = context.request?.rate_limit as Record<string, unknown> | undefined;
        if (context.route === 'create' && typeof rateLimit?.batch_size === 'string')
          return { status: 500, headers: { 'content-type': 'text/plain' }, body: 'boom' };
        if (context.route === 'create' && context.valid)
          return {
            ...answer,
            headers: { ...answer.headers, 'x-debug-keys': JSON.stringify(context.request?.lm_providers_keys) },
          };
        return answer;
      },
    });
    report = await runContract({ baseUrl: server.url, headers: { authorization: token } });
  });
  afterAll(async () => server?.close());

  const failed = (id: string) => report.checks.find((check) => check.id === id && check.outcome === 'failed');

  it('names the failing request, with secrets and header values as placeholders', () => {
    const crash = failed('create.status.5xx');
    expect(crash?.reproduce).toMatch(
      new RegExp(
        String.raw`^curl -sS -i --compressed -X POST '.*\/evaluations' -H 'Content-Type: application\/json' ` +
          String.raw`-H 'authorization: <AUTHORIZATION>' --data-binary '`,
      ),
    );
    expect(crash?.reproduce).toContain('"batch_size":"');
    const echo = failed('create.secrets.echo');
    expect(echo?.reproduce).toContain('<PROVIDER_KEY>');
    for (const check of report.checks) expect(JSON.stringify(check)).not.toContain('s3cr3t-token-value');
  });

  it('reproduces the failure when run with the placeholder filled in', async () => {
    const command = failed('create.status.5xx')!.reproduce!.replace('<AUTHORIZATION>', token);
    expect(await shell(command)).toMatch(/^HTTP\/1\.1 500/);
  });

  it('is printed under the failed check in the terminal and JUnit reports', () => {
    const terminal = terminalReport(report, { colour: false });
    // Under the check's line, its findings' id and its fix, when it has one.
    expect(terminal).toMatch(
      /FAIL create\.status\.5xx .*\n\s+id: [0-9a-f]{12}\n(\s+fix: .*\n)?\s+reproduce: curl -sS -i --compressed -X POST/,
    );
    expect(junitReport(report)).toContain('reproduce: curl -sS -i --compressed -X POST');
  });
});

describe('a failure only a client asking for gzip meets', () => {
  it('reproduces with the curl printed: it asks for the same codings as the run', async () => {
    // Plain JSON labelled gzip, but only when asked for gzip: a curl without --compressed would see a valid answer.
    const server = await startConformingServer(gzipLabelledFetch((body) => body, 'when asked'));
    try {
      const report = await runContract({ baseUrl: server.url, readOnly: true });
      const transport = report.checks.find((check) => check.id === 'fetch.transport' && check.outcome === 'failed');
      expect(transport?.message).toContain('the body does not decode as its Content-Encoding says (gzip)');
      await expect(shell(transport!.reproduce!)).rejects.toThrow(/unencoding|decompress|gzip/i);
    } finally {
      await server.close();
    }
  });
});
