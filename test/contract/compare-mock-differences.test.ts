import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compareMockOptions } from '../../cli/compare-mock.js';
import { UsageError } from '../../cli/command.js';
import { ignoredIds } from '../../cli/ignore-file.js';
import { escapeControlCharacters } from '../../http/redaction.js';
import {
  driftFails,
  MockComparer,
  type ComparedRequest,
  type MockComparison,
} from '../../contract/compare/comparison.js';
import { differenceId } from '../../contract/compare/difference-id.js';
import { gatherDifferences, type ComparedExchange, type MockDifference } from '../../contract/compare/differences.js';
import { facetsOf, type ComparedAnswer } from '../../contract/compare/facets.js';
import { candidateSettings, type MockSettings } from '../../contract/compare/settings.js';
import { violationKey } from '../../contract/compare/violations.js';
import { runs } from '../properties/runs.js';
import { catalogue, type CheckId } from '../../contract/judge/catalogue.js';
import { releaseCreateBody, releaseIds } from './release-deployments.js';

/** A success answer of the fetch operation with this body. */
const success = (body: unknown): ComparedAnswer => ({
  status: 200,
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
  redirects: [],
});

describe('id styles, by the UUID version nibble', () => {
  it('names UUIDv4, UUIDv7, other UUIDs and nil, ObjectIds and anything else as they are', () => {
    const styles = (id: string) => facetsOf(success({ id }), 'fetch').idStyles;
    expect(styles('0190a1b2-c3d4-7e5f-8a6b-7c8d9e0f1a2b')).toBe('UUIDv7');
    expect(styles('9b2f3c4d-5e6f-4a1b-9c2d-3e4f5a6b7c8d')).toBe('UUIDv4');
    expect(styles('9B2F3C4D-5E6F-4A1B-9C2D-3E4F5A6B7C8D')).toBe('UUIDv4');
    expect(styles('6ba7b810-9dad-11d1-80b4-00c04fd430c8')).toBe('UUID');
    expect(styles('00000000-0000-0000-0000-000000000000')).toBe('UUID');
    expect(styles('6637c0a25368ef07b03a64cd')).toBe('ObjectId');
    expect(styles('eval-42')).toBe('other');
    // A deployment minting v4 ids differs from a mock minting v7 ones: a frontend sorting ids by time would notice.
    const v4 = facetsOf(success({ id: '9b2f3c4d-5e6f-4a1b-9c2d-3e4f5a6b7c8d' }), 'fetch');
    const v7 = facetsOf(success({ id: '0190a1b2-c3d4-7e5f-8a6b-7c8d9e0f1a2b' }), 'fetch');
    expect(gather([exchange({ deployment: v4, mock: v7 })]).map(({ aspect }) => aspect)).toEqual(['id style']);
  });
});

/** A compared exchange of the fetch operation; its facets and checks as given. */
function exchange(parts: Partial<ComparedExchange> & Pick<ComparedExchange, 'deployment' | 'mock'>): ComparedExchange {
  return { label: 'GET /x', operation: 'fetch', answers: { deployment: 'd', mock: 'm' }, failedChecks: [], ...parts };
}

const gather = (exchanges: ComparedExchange[], accepted?: ReadonlySet<string>) =>
  gatherDifferences(exchanges, accepted);

const serverError: ComparedAnswer = {
  status: 500,
  headers: { 'content-type': 'text/plain' },
  body: 'Internal Server Error',
  redirects: [],
};
const notFound: ComparedAnswer = {
  status: 404,
  headers: { 'content-type': 'application/json' },
  body: '{"detail":"Not found"}',
  redirects: [],
};

describe("the deployment's own spec violations", () => {
  it('a 500 the deployment failed fetch.status.5xx with: its differences marked, naming the check', () => {
    const deployment = facetsOf(serverError, 'fetch');
    const mock = facetsOf(notFound, 'fetch');
    const failed: CheckId[] = ['fetch.status.5xx', 'create.secrets.echo'];
    const marked = gather([exchange({ deployment, mock, failedChecks: failed })]);
    expect(marked.map(({ aspect, deploymentBreaksSpec, check }) => ({ aspect, deploymentBreaksSpec, check }))).toEqual([
      { aspect: 'status', deploymentBreaksSpec: true, check: 'fetch.status.5xx' },
      { aspect: 'content type', deploymentBreaksSpec: true, check: 'fetch.status.5xx' },
      // The echo accounts for the error body's facets, after the 5xx in the catalogue's order.
      { aspect: 'error body', deploymentBreaksSpec: true, check: 'fetch.status.5xx' },
    ]);
    // The same answers on a request no check failed: the mock's own differences.
    const own = gather([exchange({ deployment, mock })]);
    expect(own.every((difference) => !difference.deploymentBreaksSpec && difference.check === undefined)).toBe(true);
    // Both in one run, in either order: apart, a status breaks the spec by the request it answers (a refusal of
    // key names is one, a refusal of a string for an integer is not), so the mock's own difference stays in sight.
    for (const order of [
      [exchange({ deployment, mock }), exchange({ deployment, mock, failedChecks: failed })],
      [exchange({ deployment, mock, failedChecks: failed }), exchange({ deployment, mock })],
    ]) {
      const both = gather(order);
      const byId = (list: typeof both) => list.map(({ id, check, count }) => [id, check, count]).sort();
      expect(byId(both)).toEqual(byId([...marked, ...own]));
      expect(new Set(both.map(({ id }) => id)).size).toBe(6);
    }
  });

  it("a schema failure accounts for the deployment's naive dates, never for its ids or created state", () => {
    const record = (id: string, at: string, state: string) => ({ id, created_at: at, status: { value: state } });
    const answer = (body: unknown) => facetsOf(success(body), 'create');
    const deployment = answer([record('6637c0a25368ef07b03a64cd', '2024-05-20T10:11:12.123000', 'EVALUATION_STARTED')]);
    const mock = answer([
      record('0190a1b2-c3d4-7e5f-8a6b-7c8d9e0f1a2b', '2024-05-20T10:11:12Z', 'EVALUATION_INITIALIZED'),
    ]);
    const differences = gather([
      exchange({ operation: 'create', deployment, mock, failedChecks: ['create.body.schema'] }),
    ]);
    expect(differences.map(({ aspect, check }) => `${aspect}: ${check ?? 'the mock'}`)).toEqual([
      'created state: the mock',
      'id style: the mock',
      'date form: create.body.schema',
    ]);
    // The mock's naive dates against the deployment's RFC 3339 ones are the mock's own difference.
    const reversed = gather([
      exchange({ operation: 'create', deployment: mock, mock: deployment, failedChecks: ['create.body.schema'] }),
    ]);
    expect(reversed.find(({ aspect }) => aspect === 'date form')?.deploymentBreaksSpec).toBe(false);
  });

  it('every error-level check of the catalogue is named by violations.ts', () => {
    const errors = catalogue.filter((check) => check.severity === 'error').map((check) => check.id);
    expect(errors.filter((id) => violationKey(id) === undefined)).toEqual([]);
  });
});

describe('difference ids', () => {
  const deployment = facetsOf(serverError, 'fetch');
  const mock = facetsOf(notFound, 'fetch');

  it('the same difference has the same id whatever the requests, counts, fields and excerpts', () => {
    const one = gather([exchange({ deployment, mock })]);
    const other = gather([
      exchange({ label: 'GET /y (an unknown UUID)', deployment, mock, answers: { deployment: 'D', mock: 'M' } }),
      exchange({ label: 'GET /z', deployment, mock }),
    ]);
    expect(other.map(({ id }) => id)).toEqual(one.map(({ id }) => id));
    expect(other[0]?.count).toBe(2);
    for (const { id } of one) expect(id).toMatch(/^[0-9a-f]{12}$/);
    // Pinned: the hash's input is part of every team's ignore file, so a change to it is a change they must make.
    const identity = { operation: 'fetch', aspect: 'status', deployment: '500', mock: '404' } as const;
    expect(differenceId(identity)).toBe(one[0]?.id);
    expect(one[0]?.id).toBe('4d28d31b4fdc');
  });

  it('differs by operation, aspect and either value', () => {
    const identity = { operation: 'fetch', aspect: 'status', deployment: '500', mock: '404' } as const;
    const ids = new Set(
      [
        identity,
        { ...identity, operation: 'create' as const },
        { ...identity, aspect: 'content type' },
        { ...identity, deployment: '501' },
        { ...identity, mock: '200' },
        { ...identity, deployment: '404', mock: '500' },
      ].map(differenceId),
    );
    expect(ids.size).toBe(6);
  });
});

describe('accepted differences', () => {
  const deployment = facetsOf(notFound, 'fetch');
  const mock = facetsOf(success({ id: 'x' }), 'fetch');

  const comparison = (differences: MockDifference[]): MockComparison => ({
    command: 'evalkit mock',
    compared: 1,
    notCompared: 0,
    differences,
    suggested: { command: 'evalkit mock', settings: {}, differences: [] },
    failOnDrift: true,
  });

  it('are marked, and fail no --fail-on-drift; nor does a violation alone; a drift does', () => {
    const [status] = gather([exchange({ deployment, mock })]);
    const accepted = gather([exchange({ deployment, mock })], new Set([status?.id ?? '']));
    expect(accepted.map((difference) => difference.accepted)).toEqual([true, true].slice(0, accepted.length));
    expect(driftFails(comparison(accepted.filter((difference) => difference.accepted)))).toBe(false);
    expect(driftFails(comparison(gather([exchange({ deployment, mock })])))).toBe(true);
    const violation = gather([
      exchange({ deployment: facetsOf(serverError, 'fetch'), mock, failedChecks: ['fetch.status.5xx'] }),
    ]);
    expect(violation.length).toBeGreaterThan(0);
    expect(driftFails(comparison(violation))).toBe(false);
  });

  it('an ignore file: one id a line, # comments and blank lines skipped, anything else a usage error', () => {
    const text = '# known since 0.17\n4d28d31b4fdc\n\n  0123456789ab  # the date form\r\n';
    expect([...ignoredIds(text, 'known.txt')]).toEqual(['4d28d31b4fdc', '0123456789ab']);
    expect(() => ignoredIds('4d28d31b4fdc\nstatus 500\n', 'known.txt')).toThrow(
      new UsageError(
        '--ignore known.txt line 2: "status 500" is not an id ' +
          '(12 hex characters, as a contract, proxy, --compare-mock or diff report prints them)',
      ),
    );
  });

  it('property: a file is read as its ids, or refused at its first wrong line, in one bounded line', () => {
    const id = fc.string({ unit: fc.constantFrom(...'0123456789abcdef'), minLength: 12, maxLength: 12 });
    // What hostile or careless files hold: NUL, escapes, line and paragraph separators, bidi overrides, a byte order
    // mark, a lone CR (a classic Mac file), an id in capitals or followed by a note without its #, a huge line.
    const hostile = fc.constantFrom(
      '\u0000',
      '\u001b[2J',
      '\u2028',
      '\u2029',
      '\u0085',
      '\u202e',
      '\ufeff',
      '\r',
      '\t',
    );
    const line = fc.oneof(
      id,
      id.map((value) => `  ${value}  # reviewed`),
      id.map((value) => value.toUpperCase()),
      id.map((value) => `${value} the 500 on create`),
      fc.tuple(hostile, id).map(([bad, value]) => `${bad}${value}`),
      fc.tuple(id, hostile).map(([value, bad]) => `${value}${bad}`),
      fc.constantFrom('', '# a comment', '   ', '# \u0000\u001b\u2028 in a comment'),
      fc.string({ maxLength: 2000 }),
      fc.string({ unit: 'binary', maxLength: 50 }),
      fc.nat({ max: 200_000 }).map((length) => 'x'.repeat(length)),
    );
    fc.assert(
      fc.property(fc.array(line, { maxLength: 12 }), fc.constantFrom('\n', '\r\n'), fc.boolean(), (lines, end, bom) => {
        const text = `${bom ? '\ufeff' : ''}${lines.join(end)}`;
        const entries = text.split(/\r?\n/).map((each) => each.replace(/#.*/, '').trim());
        const wrong = entries.findIndex((entry) => entry !== '' && !/^[0-9a-f]{12}$/.test(entry));
        if (wrong < 0) {
          expect([...ignoredIds(text, 'f')]).toEqual([...new Set(entries.filter((entry) => entry !== ''))]);
          return;
        }
        let refusal: unknown;
        try {
          ignoredIds(text, 'f');
        } catch (error) {
          refusal = error;
        }
        expect(refusal).toBeInstanceOf(UsageError);
        // As the CLI prints it (cli/main.ts): invisible characters shown as escapes, on one line of stderr.
        const message = escapeControlCharacters((refusal as Error).message);
        expect(message.startsWith(`--ignore f line ${wrong + 1}: `)).toBe(true);
        expect(message.length).toBeLessThan(500);
        expect(message).not.toMatch(/[\n\r\u2028\u2029\u0085\u0000\u001b]/);
      }),
      runs(300),
    );
  });

  it('an id in capitals, or followed by a note without its #, is refused with what it most likely meant', () => {
    const refusal = (text: string) => {
      try {
        ignoredIds(text, 'known.txt');
      } catch (error) {
        return (error as Error).message;
      }
      return undefined;
    };
    expect(refusal('4D28D31B4FDC')).toMatch(/; did you mean 4d28d31b4fdc\?$/);
    expect(refusal('4d28d31b4fdc the 500')).toMatch(/; did you mean 4d28d31b4fdc # …\? \(a comment starts with #\)$/);
    expect(refusal('status 500')).not.toContain('did you mean');
  });
});

describe('the closest settings', () => {
  it('every combination the mock accepts, once, fewest flags first', () => {
    const candidates = candidateSettings();
    const flags = (settings: MockSettings) => [settings.era, settings.eraDates, settings.nullable].filter(Boolean);
    expect(candidates).toHaveLength((1 + 3 + 3) * 2);
    expect(new Set(candidates.map((settings) => JSON.stringify(settings))).size).toBe(candidates.length);
    expect(candidates.every((settings) => !settings.eraDates || settings.era)).toBe(true);
    const counts = candidates.map((settings) => flags(settings).length);
    expect(counts).toEqual([...counts].sort());
  });

  const objectIds = releaseIds['object-id'];
  const requests: Array<[string, 'fetch' | 'create', ComparedRequest]> = [
    [
      'GET /human-evaluations/x',
      'fetch',
      { method: 'GET', path: `/human-evaluations/${objectIds.record}`, headers: { accept: 'application/json' } },
    ],
    [
      'POST /evaluations',
      'create',
      {
        method: 'POST',
        path: '/evaluations',
        headers: { accept: 'application/json', 'content-type': 'application/json' },
        body: JSON.stringify(releaseCreateBody('object-id')),
      },
    ],
  ];

  /**
   * The comparison of a deployment that answers as the mock under `as` (with the checks each operation's answers
   * fail), against the mock as `evalkit mock` starts; `change` alters the deployment's answers.
   */
  async function compared(
    as: MockSettings,
    failed: Partial<Record<'fetch' | 'create', CheckId[]>> = {},
    accepted: (differences: MockDifference[]) => string[] = () => [],
  ): Promise<MockComparison> {
    const options = compareMockOptions({ 'compare-mock': true, 'fail-on-drift': true }, 'http://127.0.0.1:9');
    if (!options) throw new Error('no options');
    const deployment = options.answererFor(as);
    if (!deployment) throw new Error(`the mock refuses ${JSON.stringify(as)}`);
    const run = async (accepting: ReadonlySet<string>) => {
      const comparer = new MockComparer({ ...options, accepted: accepting }, (text) => text);
      for (const [label, operation, request] of requests)
        await comparer.compare(label, operation, request, await deployment(request), failed[operation] ?? []);
      return comparer.result();
    };
    const first = await run(new Set());
    const ids = accepted(first.differences);
    return ids.length === 0 ? first : run(new Set(ids));
  }

  it("STARTED creates, naive fetched dates: --era 0.17 --era-dates, those dates the deployment's own", async () => {
    // v0.17.5 wrote a fetched record's dates naive (a schema failure), a created one's with +00:00 (RFC 3339).
    const { differences, suggested } = await compared(
      { era: '0.17', eraDates: true },
      { fetch: ['fetch.body.schema'] },
    );
    const state = differences.find(({ aspect }) => aspect === 'created state');
    expect(state).toMatchObject({ deployment: 'EVALUATION_STARTED', deploymentBreaksSpec: false });
    const dates = differences.filter(({ aspect }) => aspect === 'date form');
    expect(dates.map(({ deployment, check }) => `${deployment} ${check ?? 'the mock own'}`)).toEqual([
      'naive fetch.body.schema',
      'offset the mock own',
    ]);
    // The naive dates count for nothing against the mock, yet --era-dates, which imitates them, is named: among
    // settings as close on the mock's own differences, the one that leaves fewer of any kind.
    expect(suggested.command).toBe('evalkit mock --era 0.17 --era-dates');
    expect(suggested.differences).toEqual([]);
  });

  it('the era stays named when the difference it decides is accepted', async () => {
    const { differences, suggested } = await compared({ era: '0.17' }, {}, (found) =>
      found.filter(({ aspect }) => aspect === 'created state').map(({ id }) => id),
    );
    expect(differences.filter(({ accepted }) => accepted).map(({ aspect }) => aspect)).toEqual(['created state']);
    expect(suggested.command).toBe('evalkit mock --era 0.17');
  });

  it("a deployment's 500 is no drift: nothing fails, nothing remains, the mock as given is suggested", async () => {
    const options = compareMockOptions({ 'compare-mock': true, 'fail-on-drift': true }, 'http://127.0.0.1:9');
    if (!options) throw new Error('no options');
    const comparer = new MockComparer(options, (text) => text);
    const [label, operation, request] = requests[0] as (typeof requests)[number];
    await comparer.compare(label, operation, request, serverError, ['fetch.status.5xx']);
    const result = await comparer.result();
    expect(result.differences.map(({ aspect, check }) => `${aspect} ${check ?? ''}`)).toEqual([
      'status fetch.status.5xx',
      'content type fetch.status.5xx',
    ]);
    expect(driftFails(result)).toBe(false);
    expect(result.suggested).toMatchObject({ command: 'evalkit mock', differences: [] });
  });
});
