import { afterAll, describe, expect, it } from 'vitest';
import { startConformingServer, type Answer, type RunningServer } from './conforming-server.js';
import { runContract } from '../../contract/index.js';

const servers: RunningServer[] = [];
afterAll(() => Promise.all(servers.map((server) => server.close())));

const crash: Answer = {
  status: 500,
  headers: { 'content-type': 'text/plain' },
  body: 'IndexError: list index out of range',
};

describe('--examples: property-based create requests', () => {
  it(
    'shrinks a crash on valid input to its smallest body and ' +
      'reproduces it with curl, secrets and headers as placeholders',
    async () => {
      const server = await startConformingServer({
        rewrite: (answer, context) =>
          context.route === 'create' && context.valid && (context.request?.variant_ids as unknown[]).length === 0
            ? crash
            : answer,
      });
      servers.push(server);
      const report = await runContract({
        baseUrl: server.url,
        examples: 60,
        seed: '7',
        headers: { Authorization: 'Bearer TOPSECRET' },
      });
      const failed = report.checks.filter((check) => check.outcome === 'failed').map((check) => check.id);
      expect(failed).toEqual(['create.properties.valid']);
      const [example] = report.counterexamples;
      expect(example?.check).toBe('create.properties.valid');
      expect(example?.finding).toMatch(/answered 500/);
      // Shrunk: every optional field gone, every string empty, every integer 0, except the canary the suite adds.
      expect(JSON.parse(example?.body ?? '')).toEqual({
        app_id: '',
        variant_ids: [],
        evaluators_configs: [],
        testset_id: '',
        rate_limit: { batch_size: 0, max_retries: 0, retry_delay: 0, delay_between_batches: 0 },
        lm_providers_keys: { OPENAI_API_KEY: '<PROVIDER_KEY>' },
      });
      expect(example?.curl).toMatch(/^curl -sS -i --compressed -X POST 'http:\/\/127\.0\.0\.1:\d+\/evaluations' /);
      expect(example?.curl).toContain(`-H 'Authorization: <AUTHORIZATION>'`);
      expect(example?.curl).not.toMatch(/TOPSECRET|evalkit-canary-/);
    },
  );

  it('catches a 5xx on invalid input and names the broken rule', async () => {
    const server = await startConformingServer({
      rewrite: (answer, context) => {
        const rateLimit = context.request?.rate_limit as Record<string, unknown> | undefined;
        return context.route === 'create' && rateLimit && typeof rateLimit.batch_size === 'string' ? crash : answer;
      },
    });
    servers.push(server);
    const report = await runContract({ baseUrl: server.url, examples: 200, seed: '3' });
    const failed = report.checks.filter((check) => check.outcome === 'failed').map((check) => check.id);
    expect(failed.sort()).toEqual(['create.properties.invalid.5xx', 'create.status.5xx']);
    const example = report.counterexamples.find((candidate) => candidate.check === 'create.properties.invalid.5xx');
    expect(example?.finding).toMatch(/^\/rate_limit\/batch_size: type integer .*answered 500/);
  });

  it('blames the body that brought the deployment down, not whatever shrinking tried once it was gone', async () => {
    const server: RunningServer = await startConformingServer({
      // A deployment whose process dies on one particular body.
      rewrite: (answer, context) => {
        if (context.route === 'create' && String(context.request?.testset_id).includes('%')) void server.close();
        return answer;
      },
    });
    servers.push(server);
    const report = await runContract({ baseUrl: server.url, examples: 400, seed: '1' });
    expect(report.stopped).toMatch(
      new RegExp(
        '^the deployment stopped answering after request \\d+ \\(POST /evaluations: .*\\); ' +
          'every later request failed to connect\\. Request \\d+: curl ',
      ),
    );
    expect(report.stopped).toMatch(/"testset_id":"[^"]*%/);
    const [example] = report.counterexamples;
    expect(example?.finding).toMatch(/dropped|closed/);
    expect(JSON.parse(example?.body ?? '{}').testset_id).toContain('%');
  });

  it(
    'stops a deployment that hangs on some bodies after two timeouts, ' + 'with the hanging body as counterexample',
    async () => {
      // Hangs whenever the body is short: the default body and its probes are long, some invalid property cases short.
      const server = await startConformingServer({
        raw: (req) => req.method === 'POST' && Number(req.headers['content-length']) < 250,
      });
      servers.push(server);
      // 1 s, not less: on a loaded 2-core machine a request that does not hang can take 200 ms, and time out.
      const report = await runContract({ baseUrl: server.url, examples: 100, timeoutMs: 1_000 });
      expect(report.stopped).toBe('stopped after 2 requests timed out (the last: no complete answer within 1000 ms)');
      const failed = report.checks.filter((check) => check.outcome === 'failed').map((check) => check.id);
      expect(failed.sort()).toEqual(['create.properties.invalid.5xx', 'create.transport']);
      const [example] = report.counterexamples;
      expect(example?.finding).toMatch(/no complete answer within 1000 ms/);
      expect(
        Buffer.byteLength(example?.body.replace(/<PROVIDER_KEY>/g, 'evalkit-canary-000000000') ?? ''),
      ).toBeLessThan(250);
    },
  );

  it('passes every property against the conforming server, with the same verdict for the same seed', async () => {
    const server = await startConformingServer();
    servers.push(server);
    const first = await runContract({ baseUrl: server.url, examples: 50, seed: 'same' });
    const second = await runContract({ baseUrl: server.url, examples: 50, seed: 'same' });
    const outcomes = (report: typeof first) => report.checks.map((check) => `${check.id}:${check.outcome}`);
    expect(outcomes(first)).toEqual(outcomes(second));
    expect(
      first.checks.filter((check) => check.id.startsWith('create.properties.')).map((check) => check.outcome),
    ).toEqual(['passed', 'passed', 'passed']);
  });
});
