import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { exitCode, githubAnnotations, junitReport, runContract, terminalReport } from '../../contract/index.js';
import { runCli } from '../helpers/cli.js';
import { json, startConformingServer, type Behaviour, type RunningServer } from './conforming-server.js';
import { mutations } from './bank.js';

const servers: RunningServer[] = [];
const dir = mkdtempSync(join(tmpdir(), 'evalkit-verdict-'));
afterAll(async () => {
  await Promise.all(servers.map((server) => server.close()));
  rmSync(dir, { recursive: true, force: true });
});

async function start(behaviour: Behaviour): Promise<RunningServer> {
  const server = await startConformingServer(behaviour);
  servers.push(server);
  return server;
}

function mutation(name: string): Behaviour {
  const entry = mutations.find((candidate) => candidate.name.startsWith(name));
  if (!entry) throw new Error(`no mutation ${name}`);
  return entry.behaviour;
}

/** Every request answered with one status, as a wrong path prefix or missing credentials do. */
const everything = (status: number): Behaviour => ({
  raw: (_req, res) => (
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ detail: 'no' })),
    true
  ),
});

describe('a run that verified nothing', () => {
  it.each([
    [404, 'nothing verified: every request was answered 404: is the path prefix in --base-url right?'],
    [401, 'nothing verified: every request was answered 401: the deployment wants credentials'],
    [403, 'nothing verified: every request was answered 403: the deployment wants credentials'],
  ])('every request answered %i: exit 1 with the likely cause, even without --strict', async (status, headline) => {
    const server = await start(everything(status));
    const run = await runCli(['contract', '--base-url', server.url]);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(headline);
    expect(run.stdout.trimEnd().split('\n').at(-1)).toMatch(
      /^NOTHING VERIFIED: \d+ passed, 0 failed .* skipped, \d+ notes?; http:\/\/127\.0\.0\.1:\d+\/; \d+ ms$/,
    );
  });

  it.each<[string, Behaviour, string]>([
    [
      'redirected in a loop',
      { raw: (req, res) => (res.writeHead(307, { location: req.url }).end(), true) },
      'every request was redirected and the redirect not followed (see the *.transport findings): ' +
        'pass as --base-url the address the deployment answers at, or, for a login page, credentials with --header',
    ],
    [
      'redirected to another origin',
      { raw: (_req, res) => (res.writeHead(302, { location: 'http://localhost:1/' }).end(), true) },
      'every request was redirected and the redirect not followed',
    ],
    [
      'rate-limited for longer than the timeout',
      { raw: (_req, res) => (res.writeHead(429, { 'retry-after': '3600' }).end(), true) },
      'every request was rate-limited past --timeout (see the *.transport findings): ' +
        'set --rate-limit N/s or raise --timeout',
    ],
    [
      'answered 500',
      everything(500),
      'the deployment failed every request (see the *.status.5xx findings; its logs hold the cause)',
    ],
    [
      'answered 200 with a body cut short',
      {
        raw: (_req, res) => (res.socket?.end('HTTP/1.1 200 OK\r\ncontent-length: 100\r\n\r\n{"id"'), true),
      },
      'no success answer arrived whole (see the *.transport findings)',
    ],
  ])('every request %s: the headline names that cause, not unknown ids', async (_what, behaviour, cause) => {
    const report = await runContract({ baseUrl: (await start(behaviour)).url, timeoutMs: 1_000 });
    expect(report.headline).toMatch(/^nothing verified: no success answer to check \(answers: [^)]*\): /);
    expect(report.headline).toContain(cause);
    expect(report.headline).not.toContain('--human-evaluation-id');
    expect(exitCode(report)).toBe(1);
  });

  it('skips the secrets check when no request got an answer to scan', async () => {
    const server = await start({ raw: (req) => (req.socket.destroy(), true) });
    const report = await runContract({ baseUrl: server.url });
    expect(report.checks.find((check) => check.id === 'create.secrets.echo')?.outcome).toBe('skipped');
    expect(report.verdict).toBe('FAIL');
    expect(report.headline).toBe('nothing verified: no request got a complete answer');
  });

  it('fails the JUnit report and annotates GitHub too, as the exit code does', async () => {
    const report = await runContract({ baseUrl: (await start(everything(404))).url });
    expect(exitCode(report)).toBe(1);
    expect(junitReport(report)).toMatch(
      new RegExp(
        String.raw`<testcase name="run\.verified" classname="run">` +
          String.raw`<failure type="error" message="nothing verified: every request was answered 404`,
      ),
    );
    // The checks may all pass or skip: the job still says why it failed where the pull request shows it.
    expect(githubAnnotations(report)).toMatch(
      /^::error title=run\.verified::nothing verified: every request was answered 404/m,
    );
  });
});

describe('the verdict line and the JUnit failures agree with the exit code', () => {
  it('ends the terminal report with PASS, counts, target and time', async () => {
    const report = await runContract({ baseUrl: (await start({})).url });
    const last = terminalReport(report, { colour: false }).trimEnd().split('\n').at(-1);
    expect(last).toMatch(
      new RegExp(
        String.raw`^PASS: \d+ passed, 0 failed \(0 errors, 0 warnings\), ` +
          String.raw`\d+ skipped, \d+ notes?; http:\/\/127\.0\.0\.1:\d+\/; \d+ ms$`,
      ),
    );
  });

  it('shows a failed warning as a property and output, and as a failure only with --strict', async () => {
    const server = await start(mutation('GET answers the record of another id'));
    const lenient = await runContract({ baseUrl: server.url });
    expect(exitCode(lenient)).toBe(0);
    expect(lenient.verdict).toBe('PASS');
    expect(terminalReport(lenient, { colour: false }).trimEnd().split('\n').at(-1)).toMatch(
      /^PASS \(1 warning: warnings fail a run only with --strict\): \d+ passed, 1 failed \(0 errors, 1 warning\)/,
    );
    const xml = junitReport(lenient);
    expect(xml).not.toContain('<failure');
    expect(xml).toMatch(
      new RegExp(
        String.raw`<testcase name="fetch\.body\.id" [^>]*>` +
          String.raw`<properties><property name="warning" ` +
          String.raw`value="GET \/human-evaluations\/[^"]+ answered the record of another id`,
      ),
    );
    expect(xml).toMatch(/<testsuites [^>]*failures="0"/);
    const strict = await runContract({ baseUrl: server.url, strict: true });
    expect(exitCode(strict)).toBe(1);
    expect(strict.verdict).toBe('FAIL');
    expect(junitReport(strict)).toMatch(/<testcase name="fetch\.body\.id" [^>]*><failure type="warning"/);
    expect(terminalReport(strict, { colour: false }).trimEnd().split('\n').at(-1)).toMatch(
      /^FAIL \(1 warning, under --strict\): \d+ passed, 1 failed \(0 errors, 1 warning\)/,
    );
  });
});

describe('right words', () => {
  it(
    'reports a 500 to a valid create request as a server error with its body, ' + 'in the checks and the properties',
    async () => {
      const server = await start({
        rewrite: (answer, context) =>
          context.route === 'create'
            ? {
                status: 500,
                headers: { 'content-type': 'text/plain' },
                body: 'Internal Server Error: KeyError provider',
              }
            : answer,
      });
      const report = await runContract({ baseUrl: server.url, examples: 2 });
      const message = (id: string) => report.checks.find((check) => check.id === id)?.message ?? '';
      expect(message('create.status.5xx')).toMatch(
        /^POST \/evaluations answered 500 \(a server error\): "Internal Server Error: KeyError provider"/,
      );
      expect(message('create.properties.valid')).toMatch(
        /answered 500 \(a server error\): "Internal Server Error: KeyError provider"/,
      );
      expect(
        report.checks
          .filter((check) => check.outcome === 'failed')
          .map((check) => check.message)
          .join(' '),
      ).not.toMatch(/dropped/);
    },
  );
});

describe('--report-json and report paths', () => {
  it("carries each failure's curl reproduction and the target", async () => {
    const server = await start(mutation('500 instead of 422'));
    const file = join(dir, 'r.json');
    await runCli(['contract', '--base-url', server.url, '--report-json', file]);
    const report = JSON.parse(readFileSync(file, 'utf8')) as {
      target: string;
      checks: Array<{ id: string; reproduce?: string }>;
    };
    expect(report.target).toBe(`${server.url}/`);
    expect(report.checks.find((check) => check.id === 'create.status.5xx')?.reproduce).toMatch(
      /^curl -sS -i --compressed -X POST 'http:\/\/127\.0\.0\.1:\d+\/evaluations'/,
    );
  });

  it.each([
    ['report-json', join(tmpdir(), 'no-such-dir-evalkit', 'r.json')],
    ['report-junit', tmpdir()],
  ])('an unwritable --%s path is a usage error before any request is sent', async (option, path) => {
    let requests = 0;
    const server = await start({ raw: () => (requests++, false) });
    const run = await runCli(['contract', '--base-url', server.url, `--${option}`, path]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(new RegExp(`^evalkit contract: --${option} cannot write `));
    expect(requests).toBe(0);
  });
});

describe('provider key names and unknown id shapes', () => {
  it('says which key names a deployment refused, in a handful of requests', async () => {
    const plain = await runContract({ baseUrl: (await start({})).url });
    const refusing = await runContract({
      baseUrl: (await start(mutation('a release that takes only its own provider key names'))).url,
    });
    const check = refusing.checks.find((candidate) => candidate.id === 'create.provider-keys.accepted');
    expect(check?.outcome).toBe('failed');
    expect(check?.message).toMatch(
      new RegExp(
        String.raw`^POST \/evaluations with lm_providers_keys named "MY_LLM_PROVIDER_KEY" ` +
          String.raw`answered 422, the same body with "[A-Z_]+"(, "[A-Z_]+")* was accepted: a valid request refused`,
      ),
    );
    expect(check?.findings.join(' ')).toContain('"clé_fournisseur_ü"');
    expect(check?.findings.join(' ')).not.toContain('"MISTRAL_API_KEY"');
    // One request on a deployment that keeps the spec; a control and one per name more on one that does not.
    expect(refusing.requests - plain.requests).toBe(6);
  });

  it('blames no key name when the deployment refuses any repeated create (a duplicate)', async () => {
    const seen = new Set<string>();
    const server = await start({
      rewrite: (answer, context) => {
        if (context.route !== 'create' || !context.valid) return answer;
        const key = JSON.stringify({ ...context.request, lm_providers_keys: undefined });
        if (seen.has(key)) return json(409, { detail: 'An evaluation for these variants already exists' });
        seen.add(key);
        return answer;
      },
    });
    const report = await runContract({ baseUrl: server.url });
    const check = report.checks.find((candidate) => candidate.id === 'create.provider-keys.accepted');
    expect(check?.outcome).toBe('skipped');
    expect(check?.message).toBe(
      'the same create request sent again was refused too (409): a refusal not about key names',
    );
  });

  it('varies key names in property runs too: well-known providers and arbitrary Unicode names', async () => {
    const names = new Set<string>();
    const server = await start({
      rewrite: (answer, context) => {
        const keys = context.request?.lm_providers_keys;
        if (context.valid && keys && typeof keys === 'object') for (const name of Object.keys(keys)) names.add(name);
        return answer;
      },
    });
    await runContract({ baseUrl: server.url, examples: 60, seed: 'names' });
    // The default run's own names (its body's and the handful it varies) left out: these come from the properties.
    const seen = [...names].filter(
      (name) => !['MY_LLM_PROVIDER_KEY', 'my_llm_provider_key', 'provider-2-key', 'clé_fournisseur_ü'].includes(name),
    );
    expect(seen.filter((name) => /^[A-Z]+_API_KEY$/.test(name)).length).toBeGreaterThan(4);
    expect(seen.some((name) => /[^\x00-\x7f]/.test(name))).toBe(true);
  });

  it("probes unknown ids in the deployment's own shape first, then the others, and says which got what", async () => {
    const uuid = '01890a5d-ac96-774b-bcce-b302099a8057';
    const server = await start({
      knownIds: [uuid],
      rewrite: (answer, context) =>
        context.route === 'fetch' && !context.valid && !/^[0-9a-f-]{36}$/.test(context.id ?? '')
          ? json(500, { detail: 'invalid ObjectId' })
          : answer,
    });
    // Read-only: the given id is the only one the deployment shows (created Evaluations would add theirs).
    const report = await runContract({
      baseUrl: server.url,
      deployment: { fetchHumanEvaluation: uuid },
      readOnly: true,
    });
    expect(report.notes.find((note) => note.message.startsWith('unknown ids answered'))?.message).toBe(
      'unknown ids answered: UUID (its own shape) 404, ObjectId 500, other 500',
    );
    const crash = report.checks.find((check) => check.id === 'fetch.status.5xx');
    // One answer to both: one finding, the requests that got it listed.
    expect(crash?.findings[0]).toMatch(
      /^2 requests answered 500 .*; they were: GET \/human-evaluations\/[0-9a-f]{24} \(an unknown ObjectId\); /,
    );
  });

  it("names an unknown id of the deployment's own shape plainly when that shape is neither", async () => {
    const own = 'eval-0001';
    const server = await start({
      knownIds: [own],
      rewrite: (answer, context) =>
        context.route === 'fetch' && !context.valid ? json(500, { detail: 'boom' }) : answer,
    });
    const report = await runContract({
      baseUrl: server.url,
      deployment: { fetchHumanEvaluation: own },
      readOnly: true,
    });
    const findings = report.checks.find((check) => check.id === 'fetch.status.5xx')?.findings ?? [];
    expect(findings[0]).toMatch(
      new RegExp(
        '^3 requests answered 500 .*; they were: GET /human-evaluations/evalkit-unknown-[0-9a-f]{12} \\(an unknown ' +
          'id shaped like neither an ObjectId nor a UUID, as the ids the deployment gave are\\); ',
      ),
    );
    expect(findings.join('\n')).not.toMatch(/another shape/);
  });
});
