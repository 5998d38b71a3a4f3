import { readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { arbitraryFor } from '../../contract/run/arbitraries.js';
import { jsonReport, runContract, terminalReport, type ContractOptions, type Report } from '../../contract/index.js';
import { Pacer, parseRate } from '../../contract/run/pacing.js';
import { retryAfterMs } from '../../contract/run/retry-after.js';
import { startMockServer, type MockServer } from '../../mock/index.js';
import { runCli } from '../helpers/cli.js';
import { mutations } from './bank.js';
import { startConformingServer, type Answer, type Behaviour, type RunningServer } from './conforming-server.js';
import { removeTempDirs, tempDir } from '../helpers/temp-dirs.js';

const servers: Array<RunningServer | MockServer> = [];
afterAll(() => Promise.all(servers.map((server) => server.close())));
afterAll(removeTempDirs);

async function start(behaviour: Behaviour): Promise<RunningServer> {
  const server = await startConformingServer(behaviour);
  servers.push(server);
  return server;
}

/** What the deployment saw: when each request arrived (its own clock) and the most it had in flight at once. */
class Traffic {
  /** `at` on a monotonic clock, `wall` the server's Date.now(), for comparing with HTTP-dates. */
  readonly arrivals: Array<{ at: number; wall: number; method: string; url: string }> = [];
  private inFlight = 0;
  maxInFlight = 0;

  /** A `raw` hook that records every request and lets the server answer it. */
  readonly record = (req: IncomingMessage, res: ServerResponse): false => {
    this.arrivals.push({ at: performance.now(), wall: Date.now(), method: req.method ?? '', url: req.url ?? '' });
    this.maxInFlight = Math.max(this.maxInFlight, ++this.inFlight);
    res.once('close', () => this.inFlight--);
    return false;
  };

  /** The most requests that arrived within any one second. */
  busiestSecond(): number {
    const times = this.arrivals.map((arrival) => arrival.at).sort((a, b) => a - b);
    return Math.max(0, ...times.map((from, index) => times.slice(index).filter((at) => at < from + 1000).length));
  }
}

/** A `send` hook answering after a random delay, so answers come back in another order than they were asked. */
function jittered(maxMs: number): Behaviour['send'] {
  return (res: ServerResponse, answer: Answer) => {
    setTimeout(() => res.writeHead(answer.status, answer.headers).end(answer.body), Math.floor(Math.random() * maxMs));
    return true;
  };
}

/** The JSON report without what depends on timing or on the concurrency setting itself. */
function comparable(report: Report): unknown {
  const document = JSON.parse(jsonReport(report)) as Record<string, unknown> & {
    pacing: { rateLimited: Record<string, unknown> };
  };
  const { durationMs: _duration, pacing, ...rest } = document;
  const { waitedMs: _waited, ...rateLimited } = pacing.rateLimited;
  return { ...rest, rateLimited, ratePerSecond: (pacing as { ratePerSecond?: number }).ratePerSecond };
}

function bankBehaviour(name: string): Behaviour {
  const entry = mutations.find((candidate) => candidate.name === name);
  if (!entry) throw new Error(`no bank mutation '${name}'`);
  return entry.behaviour;
}

// Each test has servers of its own, and most wait (on latency, rate limits, Retry-After): they wait together. The one
// with a short timeout runs alone, so no neighbour's work can stretch one of its answers past it.
describe.concurrent('--concurrency: the same report at any concurrency', () => {
  it('fc.sample draws the inputs fc.check draws for a seed (what sending property cases ahead relies on)', async () => {
    // The shape of the invalid cases' arbitrary: a valid body and a pick, mapped.
    const arbitrary = fc
      .tuple(arbitraryFor('CreateEvaluationRequest'), fc.nat())
      .map(([body, pick]) => ({ body, pick }));
    const seen: string[] = [];
    await fc.check(
      fc.asyncProperty(arbitrary, async (body) => {
        seen.push(JSON.stringify(body));
        return true;
      }),
      { numRuns: 300, seed: -1234567 },
    );
    expect(fc.sample(arbitrary, { numRuns: 300, seed: -1234567 }).map((body) => JSON.stringify(body))).toEqual(seen);
  });

  it('gives the same JSON report at 1 and 8 in flight against the mock with latency', async () => {
    const mock = await startMockServer({
      port: 0,
      scenario: { latency: '5-40' },
      fixturesDir: new URL('../../fixtures/mock', import.meta.url).pathname,
      strictIds: true,
    });
    servers.push(mock);
    const options: ContractOptions = { baseUrl: mock.url, examples: 60, seed: 'same' };
    const serial = await runContract({ ...options, concurrency: 1 });
    const parallel = await runContract({ ...options, concurrency: 8 });
    // The mock reads integers sent as digit strings, as the newest release does: the suite's one warning about it.
    const failed = serial.checks.filter((check) => check.outcome === 'failed');
    expect(failed.map((check) => [check.id, check.severity])).toEqual([
      ['create.invalid.rejected', 'warning'],
      ['create.properties.invalid.rejected', 'warning'],
    ]);
    expect(
      serial.checks.filter((check) => check.id.startsWith('create.properties.')).map((check) => check.outcome),
    ).toEqual(['passed', 'passed', 'failed']);
    expect(comparable(parallel)).toEqual(comparable(serial));
    expect(parallel.pacing?.concurrency).toBe(8);
  });

  it(
    'gives the same verdicts, shrunk counterexamples and order against a bank server ' + 'that fails property cases',
    async () => {
      // Valid bodies get answers that fail the schema; invalid ones are accepted, each probe a finding of its own.
      const rewrites = ['revisions as integers instead of strings', 'invalid create requests accepted with 200'].map(
        (name) => bankBehaviour(name).rewrite as NonNullable<Behaviour['rewrite']>,
      );
      const traffic = new Traffic();
      const server = await start({
        raw: traffic.record,
        rewrite: (answer, context) => rewrites.reduce((current, rewrite) => rewrite(current, context), answer),
        send: jittered(15),
      });
      const options: ContractOptions = { baseUrl: server.url, examples: 80, seed: '11' };
      const serial = await runContract({ ...options, concurrency: 1 });
      expect(traffic.maxInFlight).toBe(1);
      traffic.maxInFlight = 0;
      const parallel = await runContract({ ...options, concurrency: 8 });
      expect(traffic.maxInFlight).toBeGreaterThan(1);
      expect(traffic.maxInFlight).toBeLessThanOrEqual(8);

      const failed = serial.checks.filter((check) => check.outcome === 'failed').map((check) => check.id);
      expect(failed).toEqual([
        'create.body.schema',
        'create.invalid.rejected',
        'create.properties.valid',
        'create.properties.invalid.rejected',
      ]);
      // Findings are kept up to 20 per check, the rest counted in a last "and N more findings": more than 30 in all.
      const more = /^and (\d+) more findings$/.exec(
        serial.checks.find((check) => check.id === 'create.invalid.rejected')?.findings[20] ?? '',
      );
      expect(20 + Number(more?.[1])).toBeGreaterThan(30);
      expect(serial.counterexamples.map((example) => example.check)).toEqual([
        'create.properties.valid',
        'create.properties.invalid.rejected',
      ]);
      expect(serial.counterexamples.every((example) => example.shrinks > 0)).toBe(true);
      expect(comparable(parallel)).toEqual(comparable(serial));
    },
  );

  it('probes meet the deployment in the state the valid create left, at any concurrency', async () => {
    // A deployment that accepts evaluators_configs of a wrong type once it holds a record (its validation of a
    // config list takes another path then), slow to answer its first create: probes sent beside that create
    // arrived before it held one, and the wrong types were refused or accepted by timing alone.
    const stateful = () => {
      let holds = false;
      return start({
        rewrite: (answer, context) => {
          const wrongConfigs = answer.status === 422 && answer.body.includes('"evaluators_configs"');
          if (context.route === 'create' && wrongConfigs && holds) return { ...answer, status: 200, body: '[]' };
          return answer;
        },
        send: (res, answer, context) => {
          if (context.route !== 'create' || !context.valid || holds) return false;
          setTimeout(() => {
            holds = true;
            res.writeHead(answer.status, answer.headers).end(answer.body);
          }, 300);
          return true;
        },
      });
    };
    // Two deployments, each fresh: the report of each with its own address in place of the port.
    const run = async (concurrency: number) => {
      const server = await stateful();
      const report = await runContract({ seed: 'state', baseUrl: server.url, concurrency });
      return JSON.parse(JSON.stringify(comparable(report)).split(new URL(server.url).port).join('PORT')) as {
        checks: Array<{ id: string; outcome: string; findings: string[] }>;
      };
    };
    const serial = await run(1);
    const parallel = await run(16);
    const rejected = serial.checks.find((check) => check.id === 'create.invalid.rejected');
    expect(rejected?.outcome).toBe('failed');
    expect(rejected?.findings.join('\n')).toContain('/evaluators_configs: type array (sent as a string)');
    expect(parallel).toEqual(serial);
  });

  it.sequential(
    'sends nothing more once two answers timed out, at any concurrency, and reports it as at 1',
    async () => {
      const traffic = new Traffic();
      const server = await start({
        raw: (req, res) =>
          traffic.record(req, res) || bankBehaviour('hangs past the timeout on create').raw?.(req, res) === true,
      });
      // 1 s: the answers that do come (the fetch's) come well within it on a loaded machine, where 300 ms once let a
      // GET time out first and stop the run before a second POST.
      const options: ContractOptions = { baseUrl: server.url, examples: 40, timeoutMs: 1_000 };
      const serial = await runContract({ ...options, concurrency: 1 });
      const serialPosts = traffic.arrivals.filter((arrival) => arrival.method === 'POST').length;
      const parallel = await runContract({ ...options, concurrency: 8 });
      const parallelPosts = traffic.arrivals.filter((arrival) => arrival.method === 'POST').length - serialPosts;
      expect(serial.stopped).toBe('stopped after 2 requests timed out (the last: no complete answer within 1000 ms)');
      expect(serialPosts).toBe(2);
      // The 8 first POSTs hang together; a slot freed by the first timeout may start one more before the second.
      expect(parallelPosts).toBeGreaterThanOrEqual(2);
      expect(parallelPosts).toBeLessThanOrEqual(8 + 2);
      // What was sent differs; what the report says of the deployment does not.
      const { requests: _serialRequests, ...serialReport } = comparable(serial) as Record<string, unknown>;
      const { requests: _parallelRequests, ...parallelReport } = comparable(parallel) as Record<string, unknown>;
      expect(parallelReport).toEqual(serialReport);
    },
  );

  it('never has more requests in flight than --concurrency, counted by the server', async () => {
    const traffic = new Traffic();
    const server = await start({ raw: traffic.record, send: jittered(30) });
    const suite = await runContract({ baseUrl: server.url, concurrency: 3 });
    const report = await runContract({ baseUrl: server.url, examples: 40, concurrency: 3 });
    expect(report.summary.failed).toBe(0);
    expect(traffic.maxInFlight).toBe(3);
    expect(suite.requests + report.requests).toBe(traffic.arrivals.length);
    // Property cases sent ahead are the ones fast-check judges: none is sent twice, none in vain.
    expect(report.requests).toBeLessThanOrEqual(suite.requests + 40);
  });
});

describe.concurrent('--rate-limit and 429 answers', () => {
  it('starts no more than N requests in any one second, counted by the server', async () => {
    const traffic = new Traffic();
    const server = await start({ raw: traffic.record });
    const report = await runContract({ baseUrl: server.url, concurrency: 8, rateLimit: '20/s' });
    expect(report.summary.failed).toBe(0);
    expect(traffic.arrivals.length).toBeGreaterThan(40);
    // Starts are 50 ms apart: 21 fit in a closed second; arrival jitter on a loaded machine may squeeze in one more.
    expect(traffic.busiestSecond()).toBeLessThanOrEqual(22);
    expect(report.pacing?.ratePerSecond).toBe(20);
  });

  it('waits what a 429 asks (seconds or HTTP-date), retries, and counts it: never a failure by itself', async () => {
    const traffic = new Traffic();
    // The 3rd request waits 1 s; the 8th until an HTTP-date 2.5 s ahead, cut to whole seconds: 1.5 to 2.5 s as the
    // server writes it, less the time its answer takes to reach the client (tens of ms; more on a loaded machine).
    const limited = new Map<number, () => string>([
      [3, () => '1'],
      [8, () => new Date(Date.now() + 2500).toUTCString()],
    ]);
    const retryAfter = new Map<number, string>();
    const server = await start({
      raw: (req, res) => {
        traffic.record(req, res);
        const value = limited.get(traffic.arrivals.length)?.();
        if (value === undefined) return false;
        retryAfter.set(traffic.arrivals.length, value);
        res
          .writeHead(429, { 'content-type': 'application/json', 'retry-after': value })
          .end('{"detail":"Too Many Requests"}');
        return true;
      },
    });
    const report = await runContract({ baseUrl: server.url, concurrency: 1, timeoutMs: 5000 });
    expect(report.summary.failed).toBe(0);
    expect(report.pacing?.rateLimited).toMatchObject({ retried: 2, beyondTimeout: 0 });
    // Both waits counted: the date's too, with half a second for its answer's way to the client (a 1.5 s bound, once
    // 0.5 s ahead as written, failed by 6 ms beside two busy loops).
    expect(report.pacing?.rateLimited.waitedMs).toBeGreaterThanOrEqual(1000 + 1000);
    // Each limited request was sent again, not before the wait it was told: the server's clocks are the judge.
    const told = [...retryAfter.entries()].map(([index, value]) => ({
      first: traffic.arrivals[index - 1],
      retry: traffic.arrivals[index],
      value,
    }));
    for (const { first, retry, value } of told) {
      if (first === undefined || retry === undefined) throw new Error('a limited request was not sent again');
      expect(`${retry.method} ${retry.url}`).toBe(`${first.method} ${first.url}`);
      if (/^\d+$/.test(value)) expect(retry.at - first.at).toBeGreaterThanOrEqual(Number(value) * 1000 - 5);
      else expect(retry.wall).toBeGreaterThanOrEqual(Date.parse(value) - 5);
    }
    expect(report.requests).toBe(traffic.arrivals.length - 2);
    expect(terminalReport(report, { colour: false })).toMatch(
      /429 Too Many Requests: 2 waited on and retried, sending paused \d+\.\d s in all/,
    );
    expect(JSON.parse(jsonReport(report)).pacing.rateLimited.retried).toBe(2);
  });

  it('words a Retry-After date years ahead in days, not in billions of seconds', async () => {
    const far = new Date(Date.now() + 30 * 86_400_000).toUTCString();
    const server = await start({
      raw: (req, res) => {
        if (req.method !== 'GET') return false;
        res.writeHead(429, { 'content-type': 'application/json', 'retry-after': far }).end('{"detail":"slow down"}');
        return true;
      },
    });
    const report = await runContract({
      baseUrl: server.url,
      timeoutMs: 2000,
      deployment: { fetchHumanEvaluation: 'given' },
    });
    const transport = report.checks.find((check) => check.id === 'fetch.transport');
    expect(transport?.message).toContain('(Retry-After 30 days): waiting would pass the 2000 ms timeout');
  });

  it('reports a 429 whose wait would pass --timeout as that request timing out, and says why', async () => {
    const server = await start({
      raw: (req, res) => {
        if (req.method !== 'GET') return false;
        res
          .writeHead(429, { 'content-type': 'application/json', 'retry-after': '120' })
          .end('{"detail":"Too Many Requests"}');
        return true;
      },
    });
    const report = await runContract({
      baseUrl: server.url,
      timeoutMs: 2000,
      deployment: { fetchHumanEvaluation: 'given' },
    });
    const transport = report.checks.find((check) => check.id === 'fetch.transport');
    expect(transport?.outcome).toBe('failed');
    expect(transport?.message).toMatch(
      /answered 429 Too Many Requests \(Retry-After 120 s\): waiting would pass the 2000 ms timeout/,
    );
    expect(report.pacing?.rateLimited).toEqual({ retried: 0, beyondTimeout: 2, waitedMs: 0 });
    // The stop names what timed out: a wait the deployment asked for, not a hang.
    expect(report.stopped).toBe(
      'stopped after 2 requests timed out (the last: answered 429 Too Many Requests (Retry-After 120 s): ' +
        'waiting would pass the 2000 ms timeout (raise --timeout or set --rate-limit))',
    );
    expect(terminalReport(report, { colour: false })).toContain('2 asked for a wait beyond --timeout');
  });

  it('does not retry away a 429 that echoes a submitted key: the secret check sees it', async () => {
    // A rate limiter that writes the request it refuses into its answer, keys and all; a retry would get through.
    const refused = new Set<string>();
    const server = await start({
      rewrite: (answer, context) => {
        const request = JSON.stringify(context.request ?? {});
        if (context.route !== 'create' || !request.includes('evalkit-canary-') || refused.has(request)) return answer;
        refused.add(request);
        return {
          status: 429,
          headers: { 'content-type': 'application/json', 'retry-after': '1' },
          body: JSON.stringify({ detail: 'Too Many Requests', input: context.request }),
        };
      },
    });
    const report = await runContract({ baseUrl: server.url, concurrency: 2 });
    expect(report.checks.find((check) => check.id === 'create.secrets.echo')?.outcome).toBe('failed');
    expect(report.pacing?.rateLimited).toEqual({ retried: 0, beyondTimeout: 0, waitedMs: 0 });
  });

  it('reads Retry-After as delay-seconds or an HTTP-date, and nothing else', () => {
    const now = Date.parse('Wed, 21 Oct 2015 07:28:00 GMT');
    expect(retryAfterMs({ 'retry-after': '120' }, now)).toBe(120_000);
    expect(retryAfterMs({ 'retry-after': 'Wed, 21 Oct 2015 07:28:30 GMT' }, now)).toBe(30_000);
    expect(retryAfterMs({ 'retry-after': 'Wed, 21 Oct 2015 07:27:00 GMT' }, now)).toBe(0);
    expect(retryAfterMs({}, now)).toBeUndefined();
    expect(retryAfterMs({ 'retry-after': '1.5' }, now)).toBeUndefined();
    expect(retryAfterMs({ 'retry-after': 'soon' }, now)).toBeUndefined();
  });

  it('counts overlapping pauses once: the report says how long sending stopped, not the sum of what was asked', () => {
    let now = 10_000;
    const pacer = new Pacer({ concurrency: 4 }, () => now);
    expect(pacer.pause(1000)).toBe(1000);
    expect(pacer.pause(600)).toBe(0);
    // Asked 100 ms later, 1,500 ms reaches 600 ms past the first pause's end.
    now += 100;
    expect(pacer.pause(1500)).toBe(600);
    // Once the pause is over, a new one counts whole.
    now += 5_000;
    expect(pacer.pause(300)).toBe(300);
  });

  it('reads a rate as N or N/s above zero', () => {
    expect(parseRate('5/s')).toBe(5);
    expect(parseRate('0.5/s')).toBe(0.5);
    expect(parseRate('12')).toBe(12);
    expect(parseRate('0/s')).toBeUndefined();
    expect(parseRate('5/m')).toBeUndefined();
    expect(parseRate('fast')).toBeUndefined();
  });
});

describe('evalkit contract --concurrency / --rate-limit (CLI)', () => {
  it('answers a bad value with exit 2 and one line naming the option', async () => {
    const concurrency = await runCli(['contract', '--base-url', 'http://127.0.0.1:9', '--concurrency', '0']);
    expect(concurrency.code).toBe(2);
    expect(concurrency.stderr).toMatch(/--concurrency must be an integer from 1 to 64, got '0'/);
    const rate = await runCli(['contract', '--base-url', 'http://127.0.0.1:9', '--rate-limit', 'fast']);
    expect(rate.code).toBe(2);
    expect(rate.stderr).toMatch(/--rate-limit must be requests per second .* got 'fast'/);
    expect(`${concurrency.stderr}${rate.stderr}`).not.toMatch(/\n\s+at /);
  });

  it('passes both options through and writes the pacing into the JSON report', async () => {
    const server = await start({});
    const file = join(tempDir('evalkit-pacing-'), 'report.json');
    const run = await runCli([
      'contract',
      '--base-url',
      server.url,
      '--concurrency',
      '2',
      '--rate-limit',
      '200/s',
      '--report-json',
      file,
    ]);
    expect(run.code).toBe(0);
    const pacing = JSON.parse(readFileSync(file, 'utf8')).pacing;
    expect(pacing).toEqual({
      concurrency: 2,
      ratePerSecond: 200,
      rateLimited: { retried: 0, beyondTimeout: 0, waitedMs: 0 },
    });
  });
});
