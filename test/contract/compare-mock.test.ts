import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { compareMockOptions } from '../../cli/compare-mock.js';
import { UsageError } from '../../cli/command.js';
import { differencesOf, type MockDifference } from '../../contract/compare/differences.js';
import { facetsOf } from '../../contract/compare/facets.js';
import { startMockServer } from '../../mock/index.js';
import { runCli } from '../helpers/cli.js';
import { removeTempDirs, tempDir } from '../helpers/temp-dirs.js';
import { runs } from '../properties/runs.js';
import { json, type Behaviour, type RunningServer } from './conforming-server.js';
import { releaseCreateBody, releaseIds, releases, startRelease, type Release } from './release-deployments.js';

const dir = tempDir('evalkit-compare-');
afterAll(removeTempDirs);

interface Compared {
  code: number;
  stdout: string;
  stderr: string;
  report: {
    verdict: string;
    mock: { differences: MockDifference[]; suggested: { command: string; differences: MockDifference[] } };
  };
}

let reports = 0;

/** `evalkit contract --compare-mock` against a deployment, its JSON report read back. */
async function compare(url: string, release: Release | undefined, ...flags: string[]): Promise<Compared> {
  const file = join(dir, `report-${++reports}.json`);
  const given: string[] = [];
  if (release) {
    const body = join(dir, `body-${reports}.json`);
    writeFileSync(body, JSON.stringify(releaseCreateBody(release.idStyle)));
    given.push('--create-body', body, '--human-evaluation-id', releaseIds[release.idStyle].record);
  }
  const run = await runCli(['contract', '--base-url', url, '--report-json', file, ...given, ...flags]);
  return { ...run, report: run.code === 2 ? undefined : JSON.parse(readFileSync(file, 'utf8')) } as Compared;
}

async function against<T>(server: Promise<RunningServer>, use: (url: string) => Promise<T>): Promise<T> {
  const running = await server;
  try {
    return await use(running.url);
  } finally {
    await running.close();
  }
}

const keyOf = ({ aspect, deployment, mock }: MockDifference) => `${aspect}: ${deployment} / ${mock}`;

/** The 0.18 release compared with the mock set as that release: what remains is what no mock setting gives. */
const base = releases['0.18'];
const asBase = ['--compare-mock', '--mock-era', '0.18', '--mock-era-dates', '--mock-nullable'];

let baseline: Promise<Compared> | undefined;

/** The 0.18 release compared as itself, run once for the file: the release deployment answers alike every time. */
const baseRun = () => (baseline ??= against(startRelease(base), (url) => compare(url, base, ...asBase)));

/**
 * The differences a deployment that departs from the 0.18 release in one behaviour shows beyond the release's own;
 * `asked` gives the ids the run is given (the release's own by default), `flags` more of the run's.
 */
async function departing(
  release: Release,
  behaviour: Behaviour = {},
  asked = release,
  ...flags: string[]
): Promise<MockDifference[]> {
  const known = new Set((await baseRun()).report.mock.differences.map(keyOf));
  const { report } = await against(startRelease(release, behaviour), (url) => compare(url, asked, ...asBase, ...flags));
  return report.mock.differences.filter((difference) => !known.has(keyOf(difference)));
}

describe('contract --compare-mock: where the mock would mislead a frontend', () => {
  it('the mock compared with itself under its own settings: no difference, the verdict unchanged', async () => {
    for (const flags of [[], ['--era', '0.19', '--era-dates', '--nullable'], ['--era', '0.17']]) {
      const server = await startMockServer({
        port: 0,
        scenario: Object.fromEntries(
          flags
            .filter((flag) => flag.startsWith('--'))
            .map((flag) => [
              flag === '--era-dates' ? 'eraDates' : flag.slice(2),
              flag === '--era' ? (flags[flags.indexOf(flag) + 1] as string) : true,
            ]),
        ),
        journalSize: 0,
        log: () => undefined,
      });
      try {
        const mockFlags = flags.map((flag) => (flag.startsWith('--') ? `--mock-${flag.slice(2)}` : flag));
        const compared = await compare(server.url, undefined, '--compare-mock', ...mockFlags);
        expect(compared.report.mock.differences, flags.join(' ')).toEqual([]);
        expect(compared.report.mock.suggested.command).toBe(['evalkit', 'mock', ...flags].join(' '));
        const plain = await compare(server.url, undefined);
        expect(compared.code).toBe(plain.code);
        expect(compared.report.verdict).toBe(plain.report.verdict);
      } finally {
        await server.close();
      }
    }
  });

  it('names the era of each release deployment, with --era-dates and --nullable as its answers need', async () => {
    for (const [era, release] of Object.entries(releases)) {
      const { report } = await against(startRelease(release), (url) => compare(url, release, '--compare-mock'));
      expect(report.mock.suggested.command, era).toBe(`evalkit mock --era ${era} --era-dates --nullable`);
      expect(report.mock.differences.map((difference) => difference.aspect)).toContain('date form');
    }
    // Without nulls, the era alone with its dates.
    const plain = { ...releases['0.17'], nulls: false };
    const { report } = await against(startRelease(plain), (url) => compare(url, plain, '--compare-mock'));
    expect(report.mock.suggested.command).toBe('evalkit mock --era 0.17 --era-dates');
  });

  it("statuses per kind of request: FastAPI's 422 to bad JSON and text/plain alike, 404 for unknown ids", async () => {
    const { report } = await baseRun();
    const statuses = report.mock.differences.filter((difference) => difference.aspect === 'status');
    const seen = statuses.flatMap((difference) =>
      difference.requests.map((request) => `${request}: ${keyOf(difference)}`),
    );
    // The mock answers a body that is not JSON, or not sent as JSON, as FastAPI does: only unknown ids remain.
    expect(seen).toEqual([
      expect.stringMatching(/an unknown ObjectId.*: status: 404 \/ 200$/),
      expect.stringMatching(/an unknown UUID.*: status: 404 \/ 200$/),
      expect.stringMatching(/an unknown id shaped like neither.*: status: 404 \/ 200$/),
    ]);
    // The mock's settings cannot change these: they remain under the closest ones.
    expect(report.mock.suggested.differences.map(keyOf)).toContain('status: 404 / 200');
  });

  it('a 500 in plain text for an unknown ObjectId: its status and Content-Type', async () => {
    const differences = await departing(base, {
      rewrite: (answer, context) =>
        context.route === 'fetch' && !context.valid && /^[0-9a-f]{24}$/.test(context.id ?? '')
          ? { status: 500, headers: { 'content-type': 'text/plain' }, body: 'Internal Server Error' }
          : answer,
    });
    expect(differences.map(keyOf)).toEqual(['status: 500 / 200', 'content type: text/plain / application/json']);
    expect(differences[0]?.requests[0]).toMatch(/an unknown ObjectId/);
    expect(differences[0]?.answers.deployment).toBe('500 text/plain "Internal Server Error"');
    // The deployment's own spec violation, told by the check its answer failed.
    for (const difference of differences)
      expect(difference).toMatchObject({ deploymentBreaksSpec: true, check: 'fetch.status.5xx', accepted: false });
  });

  it("a property case's 500 is the deployment's own violation too, named by its property", async () => {
    // Valid cases name apps the release does not hold, as the ObjectId releases failed on ids of another style.
    const differences = await departing(
      base,
      {
        rewrite: (answer, context) =>
          context.route === 'create' && context.valid && context.request?.app_id !== releaseIds['object-id'].app
            ? { status: 500, headers: { 'content-type': 'text/plain' }, body: 'Internal Server Error' }
            : answer,
      },
      base,
      '--examples',
      '4',
    );
    const status = differences.find((difference) => difference.aspect === 'status');
    expect(status).toMatchObject({ deployment: '500', deploymentBreaksSpec: true, check: 'create.properties.valid' });
    expect(differences.filter((difference) => !difference.deploymentBreaksSpec)).toEqual([]);
  });

  it("refused key names: the deployment's own violation, the refusal of all names at once included", async () => {
    // A deployment that accepts only names of its own kind, against the mock without an era (any name, as the spec).
    const reference = { ...base, dates: { fetch: 'Z', create: 'Z' }, reference: true } as const;
    const { report } = await against(
      startRelease(reference, {
        rewrite: (answer, context) => {
          const keys = context.request?.lm_providers_keys;
          const names = keys && typeof keys === 'object' ? Object.keys(keys) : [];
          if (context.route !== 'create' || !context.valid || names.every((name) => /_API_KEY$/.test(name)))
            return answer;
          return json(422, {
            detail: [{ loc: ['body', 'lm_providers_keys'], msg: 'unknown provider', type: 'value_error' }],
          });
        },
      }),
      (url) => compare(url, reference, '--compare-mock'),
    );
    const refusing = report.mock.differences.filter(({ check }) => check === 'create.provider-keys.accepted');
    expect(refusing.map(keyOf)).toEqual(['status: 422 / 200']);
    expect(refusing[0]).toMatchObject({ deploymentBreaksSpec: true });
    // All the names at once, then each alone: five refused requests, one difference.
    expect(refusing[0]?.count).toBe(5);
  });

  it("pydantic 2's error entries", async () => {
    const differences = await departing({ ...base, pydantic: 2 });
    // Against the mock's pydantic 1 list, apart where the deployment refused key names the spec allows (its own
    // violation, as the mock's era refuses them too); and pydantic 2 refuses what pydantic 1 coerces.
    const shapes =
      'error body: {"detail": [{type, loc, msg, input}]} (pydantic 2) / {"detail": [{loc, msg, type}]} (pydantic 1)';
    expect(differences.map((difference) => `${keyOf(difference)} ${difference.check ?? ''}`).sort()).toEqual([
      `${shapes} `,
      `${shapes} create.provider-keys.accepted`,
      'status: 422 / 200 ',
    ]);
  });

  it('an error body of another shape and media type', async () => {
    const differences = await departing(base, {
      rewrite: (answer) =>
        answer.status === 422
          ? { status: 422, headers: { 'content-type': 'application/problem+json' }, body: '{"title":"Invalid"}' }
          : answer,
    });
    expect(differences.map(keyOf)).toEqual(
      expect.arrayContaining([
        'content type: application/problem+json / application/json',
        'error body: other JSON / {"detail": [{loc, msg, type}]} (pydantic 1)',
      ]),
    );
  });

  it('a trailing-slash redirect, as FastAPI answers one', async () => {
    const differences = await departing(base, {
      raw: (req, res) => {
        if (!req.url?.endsWith('/')) return false;
        res.writeHead(307, { location: req.url.slice(0, -1) }).end();
        return true;
      },
    });
    expect(differences.map(keyOf)).toEqual(['redirects: 1 followed / none']);
    expect(differences[0]?.requests[0]).toMatch(/trailing slash/);
  });

  it('the number of Evaluations a create answers', async () => {
    const differences = await departing(base, {
      rewrite: (answer, context) =>
        context.route === 'create' && answer.status === 200
          ? { ...answer, body: JSON.stringify([...JSON.parse(answer.body), ...JSON.parse(answer.body)]) }
          : answer,
    });
    expect(differences.map(keyOf)).toContain('evaluations: 2 / 1');
  });

  it('the state a create answers', async () => {
    const differences = await departing({ ...base, createdState: 'EVALUATION_STARTED' });
    expect(differences.map(keyOf)).toEqual(['created state: EVALUATION_STARTED / EVALUATION_INITIALIZED']);
  });

  it('the style of the ids the service makes', async () => {
    // A deployment minting UUIDv7s for records of ObjectId apps (the mock follows the request's ids, else its era).
    const object = releaseIds['object-id'].record;
    const differences = await departing({ ...base, idStyle: 'uuid-v7' }, { knownIds: [object] }, base);
    expect(differences.map(keyOf)).toEqual(
      expect.arrayContaining([expect.stringMatching(/^id style: ObjectId, UUIDv7 \/ ObjectId$/)]),
    );
  });

  it('the date form', async () => {
    const differences = await departing({ ...base, dates: { fetch: 'Z', create: 'Z' } });
    // One difference per operation (each release wrote its own form per operation): an ignore file accepts each apart.
    expect(differences.map((difference) => `${difference.operation}: ${keyOf(difference)}`)).toEqual([
      'GET /human-evaluations/{evaluation_id}: date form: Z / naive',
      'POST /evaluations: date form: Z / offset',
    ]);
  });

  it('optional fields left out where the mock sends null', async () => {
    const differences = await departing({ ...base, nulls: false });
    expect(differences.map(keyOf)).toEqual(['null or absent: left out / null']);
    expect(differences[0]?.fields).toEqual(expect.arrayContaining(['[].average_cost']));
  });

  it('--fail-on-drift fails the run on a difference; without it the exit code is the plain run`s', async () => {
    // RFC 3339 dates and the reference's validation: a deployment that keeps the contract, so the plain run passes.
    const passing = { ...base, dates: { fetch: 'Z', create: 'Z' }, reference: true } as const;
    await against(startRelease(passing), async (url) => {
      const plain = await compare(url, passing);
      expect(plain.code).toBe(0);
      const compared = await compare(url, passing, ...asBase);
      expect(compared.code).toBe(0);
      expect(compared.report.verdict).toBe(plain.report.verdict);
      const failing = await compare(url, passing, ...asBase, '--fail-on-drift');
      expect(failing.code).toBe(1);
      expect(failing.stdout).toMatch(/FAIL \(--fail-on-drift: the mock differs from the deployment in \d+ ways\)/);
    });
  });

  it('--ignore FILE accepts differences by the ids of a run of another seed: --fail-on-drift exits 0', async () => {
    const passing = { ...base, dates: { fetch: 'Z', create: 'Z' }, reference: true } as const;
    await against(startRelease(passing), async (url) => {
      const first = await compare(url, passing, ...asBase, '--fail-on-drift', '--seed', '1');
      expect(first.code).toBe(1);
      const ids = first.report.mock.differences.map((difference) => difference.id);
      expect(ids.length).toBeGreaterThan(1);
      const file = join(dir, 'known-differences.txt');
      writeFileSync(file, `# accepted after review\n${ids.map((id, n) => `${id}  # ${n}`).join('\n')}\n`);
      const accepted = await compare(url, passing, ...asBase, '--fail-on-drift', '--seed', '7', '--ignore', file);
      expect(accepted.report.mock.differences.map((difference) => [difference.id, difference.accepted])).toEqual(
        ids.map((id) => [id, true]),
      );
      expect(accepted.code).toBe(0);
      expect(accepted.stdout).toMatch(/^Compared with the mock \(.*\): \d+ requests, 0 differences, \d+ accepted$/m);
      expect(accepted.stdout).toMatch(/^ {2}ACCEPTED date form: .* \[[0-9a-f]{12}\]$/m);
      // One id left out: that difference fails the run again.
      writeFileSync(file, ids.slice(1).join('\n'));
      const one = await compare(url, passing, ...asBase, '--fail-on-drift', '--seed', '7', '--ignore', file);
      expect(one.code).toBe(1);
      expect(one.stdout).toMatch(/FAIL \(--fail-on-drift: the mock differs from the deployment in 1 way\)/);
    });
  });

  it('never writes a provider key the deployment echoes in an answer', async () => {
    const sent: string[] = [];
    const { report } = await against(
      startRelease(base, {
        rewrite: (answer, context) => {
          const keys = context.request?.lm_providers_keys;
          if (context.route !== 'create' || !keys || typeof keys !== 'object') return answer;
          sent.push(...Object.values(keys).filter((key): key is string => typeof key === 'string'));
          return answer.status === 200 ? answer : json(400, { detail: `bad keys: ${JSON.stringify(keys)}` });
        },
      }),
      (url) => compare(url, base, ...asBase),
    );
    expect(sent.length).toBeGreaterThan(0);
    const text = JSON.stringify(report.mock);
    expect(text).toContain('<PROVIDER_KEY>');
    for (const key of new Set(sent)) expect(text).not.toContain(key);
    // The echo is the deployment's own violation: the error body that carries it, not the status it came with.
    const bodies = report.mock.differences.filter(
      (difference) => difference.aspect === 'error body' && difference.answers.deployment.includes('<PROVIDER_KEY>'),
    );
    expect(bodies.length).toBeGreaterThan(0);
    for (const difference of bodies)
      expect(difference).toMatchObject({ deploymentBreaksSpec: true, check: 'create.secrets.echo' });
    // The status is the echo's only where another check accounts for it (the release refuses unlisted key names).
    const statuses = report.mock.differences.filter((difference) => difference.deployment === '400');
    expect(statuses.length).toBeGreaterThan(0);
    for (const status of statuses) expect(status.check).not.toBe('create.secrets.echo');
  });

  it('a run that reaches no deployment compares nothing, and says so in one line, with no closest mock', async () => {
    const html = join(dir, 'nothing.html');
    const run = await runCli(['contract', '--base-url', 'http://127.0.0.1:9', '--compare-mock', '--report-html', html]);
    const said = /compared with the mock \(evalkit mock\): nothing compared, no request of the run got an answer/;
    expect(run.stdout).toMatch(said);
    expect(run.stdout).not.toMatch(/Closest mock/);
    expect(readFileSync(html, 'utf8')).toMatch(said);
  });

  it('each --mock-* flag without --compare-mock, or with a value the mock refuses, exits 2 naming it', async () => {
    const cases: Array<[string[], RegExp]> = [
      [['--mock-nullable'], /^--mock-nullable needs --compare-mock$/],
      [['--fail-on-drift'], /^--fail-on-drift needs --compare-mock$/],
      // --ignore accepts findings too: read without --compare-mock.
      [['--ignore', join(dir, 'none.txt')], /^--ignore cannot read .*none\.txt/],
      [['--compare-mock', '--ignore', join(dir, 'none.txt')], /^--ignore cannot read .*none\.txt/],
      [['--compare-mock', '--mock-era', '2024'], /^--mock-era: .*0\.17, 0\.18, 0\.19/],
      [['--compare-mock', '--mock-era-dates'], /^--mock-era-dates: .*era/],
      [['--compare-mock', '--mock-scenarios', join(dir, 'none.json')], /^--mock-scenarios: .*no such file/],
    ];
    for (const [flags, message] of cases) {
      const run = await runCli(['contract', '--base-url', 'http://127.0.0.1:9', ...flags]);
      expect(run.code, flags.join(' ')).toBe(2);
      expect(run.stderr.trim().split('\n'), flags.join(' ')).toHaveLength(1);
      expect(run.stderr.replace(/^evalkit contract: /, '').trim()).toMatch(message);
    }
  });
});

describe('the comparison over its input spaces', () => {
  it('any --mock-era text: the settings, or a usage error naming --mock-era', () => {
    const release = fc
      .tuple(fc.nat(3), fc.nat(40), fc.option(fc.nat(9)))
      .map(([a, b, c]) => `${a}.${b}${c === null ? '' : `.${c}`}`);
    fc.assert(
      fc.property(fc.oneof(release, fc.string({ maxLength: 40 }), fc.constantFrom('v0.18.2', '', '0.17\n')), (text) => {
        try {
          const options = compareMockOptions({ 'compare-mock': true, 'mock-era': text }, 'http://h/api');
          expect(options?.given.era).toMatch(/^0\.1[789]$/);
          expect(options?.source.basePath).toBe('/api');
        } catch (error) {
          expect(error).toBeInstanceOf(UsageError);
          expect((error as Error).message).toMatch(/^--mock-era: /);
          expect((error as Error).message).not.toContain('\n');
        }
      }),
      runs(100),
    );
  });

  it('any answer, hostile ones included: facets without a throw, and none differs from itself', () => {
    const json = fc.jsonValue({ maxDepth: 3 }).map((value) => JSON.stringify(value));
    const deep = fc.nat(100_000).map((depth) => '['.repeat(depth) + ']'.repeat(depth));
    const answer = fc.record({
      status: fc.option(fc.integer({ min: 100, max: 599 }), { nil: undefined }),
      headers: fc.record({ 'content-type': fc.option(fc.string({ maxLength: 60 }), { nil: undefined }) }),
      body: fc.oneof(json, fc.string({ maxLength: 200 }), deep),
      // Built from a domain and any path: fc.webUrl() maps all of Unicode for its percent-encoding, 1 s a process.
      redirects: fc.array(
        fc
          .tuple(fc.constantFrom('http', 'https'), fc.domain(), fc.string({ maxLength: 20 }))
          .map(([scheme, host, path]) => `${scheme}://${host}/${encodeURIComponent(path)}`),
        { maxLength: 3 },
      ),
    });
    fc.assert(
      fc.property(
        answer,
        fc.constantFrom('fetch', 'create') as fc.Arbitrary<'fetch' | 'create'>,
        (given, operation) => {
          const facets = facetsOf(given, operation);
          expect(differencesOf(facets, facetsOf(given, operation))).toEqual([]);
          expect(Object.keys(facets.fields ?? {}).length).toBeLessThanOrEqual(5_000);
        },
      ),
      runs(60),
    );
  });
});
