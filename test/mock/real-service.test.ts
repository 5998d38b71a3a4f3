import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { matchPath, pathOf } from '../../api/match.js';
import { operationTable } from '../../api/operations.js';
import { differencesOf } from '../../contract/compare/differences.js';
import { facetsOf, type ComparedAnswer } from '../../contract/compare/facets.js';
import { createMockCore, type MockCoreOptions } from '../../mock/index.js';

/**
 * Ground truth: every exchange the real service had with the contract suite's probes and property cases, at two
 * releases (../shared/real-service/README.md). Each recorded request is asked of the mock core under that release's
 * settings, and what a frontend sees of the two answers (compare-mock's own facets) must not differ, except where the
 * deployment breaks the spec or answers from records the mock does not hold.
 */
const folder = new URL('../../../shared/real-service/', import.meta.url);
const available = existsSync(new URL('era-a-v0.17.5.jsonl', folder));

interface Exchange {
  method: string;
  path: string;
  query: string;
  content_type: string | null;
  body: string;
  status: number;
  response_headers: Record<string, string>;
  response: string;
}

interface Recording {
  about: { known_human_evaluation_id: string };
  exchanges: Exchange[];
}

function recording(file: string): Recording {
  const [first, ...rest] = readFileSync(new URL(file, folder), 'utf8').trim().split('\n');
  return {
    about: (JSON.parse(first as string) as { about: Recording['about'] }).about,
    exchanges: rest.map((line) => JSON.parse(line) as Exchange),
  };
}

/** The settings under which the mock stands for each recorded release. */
const releases: Array<{ file: string; settings: MockCoreOptions }> = [
  { file: 'era-a-v0.17.5.jsonl', settings: { era: '0.17', scenario: { eraDates: true, nullable: true } } },
  { file: 'era-b-v0.24.4.jsonl', settings: { era: '0.19', scenario: { eraDates: true, nullable: true } } },
];

/**
 * Why a recorded answer is the deployment's own and not for the mock to take on; undefined when the mock must answer
 * as it did. A 5xx breaks the spec (§7: whatever the client sent, a server failure is no answer); a 404 for an id the
 * deployment does not hold, and a create refused for what its records say of an evaluator config, come from records
 * a mock that serves any id never has.
 */
function deploymentsOwn(exchange: Exchange, known: string): string | undefined {
  if (exchange.status >= 500) return 'the deployment breaks the spec (a 5xx)';
  if (exchange.method === 'GET' && exchange.status === 404 && !exchange.path.includes(known))
    return 'an id the deployment does not hold';
  if (exchange.status === 400 && exchange.response.includes('Missing LM provider Key'))
    return "what the deployment's records say of an evaluator config (an AI critique needs a provider key)";
  return undefined;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** The recorded request asked of the mock, and both answers as a frontend sees them. */
async function replay(core: ReturnType<typeof createMockCore>, exchange: Exchange) {
  const body = encoder.encode(exchange.body);
  const headers: Record<string, string> = {};
  if (exchange.content_type !== null) headers['content-type'] = exchange.content_type;
  if (exchange.method === 'POST') headers['content-length'] = String(body.length);
  const url = exchange.query ? `${exchange.path}?${exchange.query}` : exchange.path;
  const answer = await core.handle({ method: exchange.method, url, headers, ...(body.length > 0 && { body }) });
  const mock: ComparedAnswer = {
    status: answer.status,
    headers: { 'content-type': answer.headers['Content-Type'] },
    body: answer.body ? decoder.decode(answer.body) : '',
    redirects: [],
  };
  const deployment: ComparedAnswer = {
    status: exchange.status,
    headers: { 'content-type': exchange.response_headers['content-type'] },
    body: exchange.response,
    redirects: [],
  };
  return { mock, deployment };
}

/** The operation a recorded request calls, or undefined for another operation of the service (not compared). */
function operationCalled(exchange: Exchange) {
  const target = matchPath(pathOf(exchange.path));
  if (target.kind === 'unknown') return undefined;
  const called = operationTable[target.operation];
  return (called.methods as readonly string[]).includes(exchange.method) ? called : undefined;
}

/** Every difference left between a recording and the mock under `settings`, one line each. */
async function differencesLeft(
  file: string,
  settings: MockCoreOptions,
): Promise<{ lines: string[]; compared: number }> {
  const { about, exchanges } = recording(file);
  const core = createMockCore({ ...settings, log: () => undefined });
  const lines: string[] = [];
  let compared = 0;
  for (const exchange of exchanges) {
    const called = operationCalled(exchange);
    if (!called || deploymentsOwn(exchange, about.known_human_evaluation_id)) continue;
    compared++;
    const { mock, deployment } = await replay(core, exchange);
    for (const seen of differencesOf(facetsOf(deployment, called.key), facetsOf(mock, called.key)))
      lines.push(
        `${exchange.method} ${exchange.path} ${exchange.body.slice(0, 160)}\n  ${seen.aspect}: ` +
          `the deployment ${seen.deployment}, the mock ${seen.mock} ${seen.fields?.join(', ') ?? ''}`,
      );
  }
  return { lines, compared };
}

describe.skipIf(!available)('the mock against the real service, release by release (../shared/real-service)', () => {
  for (const { file, settings } of releases)
    it(`${file}: every recorded request answered as the release answered it, but its own spec violations`, async () => {
      const { lines, compared } = await differencesLeft(file, settings);
      expect(compared).toBeGreaterThan(100);
      expect(lines, lines.slice(0, 12).join('\n')).toEqual([]);
    });

  it('fails for a planted mistake: the other validation stack, or date forms not those of the release', async () => {
    const [older, newer] = releases as [(typeof releases)[0], (typeof releases)[0]];
    const wording = await differencesLeft(newer.file, { ...newer.settings, era: '0.18' });
    expect(wording.lines.join('\n')).toMatch(/error (body|words)/);
    const dates = await differencesLeft(older.file, { ...older.settings, scenario: { nullable: true } });
    expect(dates.lines.join('\n')).toMatch(/date form/);
  });
});
