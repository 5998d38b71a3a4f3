import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { maxIdLength } from '../../mock/core/limits.js';
import { createMockCore, startMockServer, type MockAnswer, type MockCore } from '../../mock/index.js';
import { adapterCase, coreAnswer, expectDelivered } from '../properties/adapters.js';
import { anyId, createRequest, scenarioValues } from '../properties/arbitraries.js';
import { expectedOf, expectValidAs, preferOf } from '../properties/oracle.js';
import { limitFor, runs } from '../properties/runs.js';

const text = (answer: MockAnswer) => new TextDecoder().decode(answer.body);
type Scenario = Record<string, string | number | boolean>;

function post(core: MockCore, request: unknown, prefer: string): Promise<MockAnswer> {
  const body = new TextEncoder().encode(JSON.stringify(request));
  const headers: Record<string, string> = { 'content-type': 'application/json', 'content-length': String(body.length) };
  if (prefer !== '') headers.prefer = prefer;
  return Promise.resolve(core.handle({ method: 'POST', url: '/evaluations', headers, body }));
}

function get(core: MockCore, id: string, prefer: string): Promise<MockAnswer> {
  const headers: Record<string, string> = prefer === '' ? {} : { prefer };
  return Promise.resolve(core.handle({ method: 'GET', url: `/human-evaluations/${encodeURIComponent(id)}`, headers }));
}

/**
 * A scenario split between the server (an option of the core) and the request (Prefer), key by key; `eraDates` takes
 * its `era` along to the server, which refuses the one without the other at start-up. `now` pins the clock in every
 * run, so two answers to one request can be compared byte for byte.
 */
const splitScenario = fc
  .tuple(scenarioValues, fc.func(fc.boolean()), fc.constantFrom('2026-01-02T03:04:05.060708Z'))
  .map(([scenario, onServer, now]) => {
    const server: Scenario = { now };
    const prefer: Scenario = {};
    for (const [key, value] of Object.entries(scenario)) {
      const side = onServer(key) || (key === 'era' && onServer('eraDates') && 'eraDates' in scenario);
      (side ? server : prefer)[key] = value;
    }
    return { server, prefer, merged: { ...server, ...prefer } };
  });

const createRuns = 150;
const fetchRuns = 300;

describe('property: every valid request to the mock core is answered as documented', () => {
  it(
    `a create the spec allows, under any scenario (${createRuns} runs)`,
    async () => {
      await fc.assert(
        fc.asyncProperty(createRequest, splitScenario, async (request, { server, prefer, merged }) => {
          const core = createMockCore({ scenario: server });
          const expected = expectedOf(merged);
          const answer = await post(core, request, preferOf(prefer));
          const nullOptional = Object.entries(request).find(([, value]) => value === null)?.[0];
          const names = Object.keys((request.lm_providers_keys ?? {}) as Record<string, string>);
          const unlisted = names.find((name) => expected.providerKeyNames && !expected.providerKeyNames.includes(name));
          if (expected.code !== undefined) {
            expect(answer.status).toBe(expected.code);
          } else if (unlisted !== undefined) {
            // The era's release refuses a provider key name outside its list, as the real service did.
            expect(answer.status).toBe(422);
            expect(text(answer)).toContain('lm_providers_keys');
          } else if (expected.strictNulls && nullOptional) {
            expect(answer.status).toBe(422);
            expect(text(answer)).toContain(nullOptional);
          } else if (names.length === 0 && answer.status === 400) {
            // No provider key for a config that is an AI critique: refused before the run, as the service does
            // (create-evaluation.test.ts shows the config is one).
            expect(JSON.parse(text(answer))).toEqual({ detail: 'Missing LM provider Key' });
          } else {
            expect(answer.status, text(answer).slice(0, 300)).toBe(200);
            const evaluations = JSON.parse(text(answer)) as Array<Record<string, any>>;
            const variants = request.variant_ids as string[];
            const configs = new Set(request.evaluators_configs as string[]);
            // One Evaluation per requested variant, in order, each carrying the request's ids.
            expect(evaluations.map((evaluation) => evaluation.variant_ids)).toEqual(variants.map((id) => [id]));
            for (const evaluation of evaluations) {
              expectValidAs('Evaluation', evaluation, expected.outsideSpec);
              expect(evaluation.app_id).toBe(request.app_id);
              if ('testset_id' in evaluation && evaluation.testset_id !== null)
                expect(evaluation.testset_id).toBe(request.testset_id);
              expect(evaluation.status.value).toBe(expected.createdState);
              for (const result of evaluation.aggregated_results as Array<Record<string, any>>)
                if (result.evaluator_config?.id !== undefined)
                  expect(configs.has(result.evaluator_config.id)).toBe(true);
            }
            // A variant given twice is one variant: the same name and revision each time.
            const names = new Map<string, string>();
            for (const [index, id] of variants.entries()) {
              const name = evaluations[index]?.variant_names[0] as string;
              expect(names.get(id) ?? name).toBe(name);
              names.set(id, name);
            }
            expect(new Set(names.values()).size).toBe(names.size);
          }
          // A credential is never echoed, whatever the answer.
          const keys = request.lm_providers_keys;
          if (keys && typeof keys === 'object')
            for (const value of Object.values(keys as Record<string, string>))
              if (value.length >= 12) expect(text(answer)).not.toContain(value);
          // The clock is pinned: the same request gets the same bytes, and the mock goes on answering.
          expect(text(await post(core, request, preferOf(prefer)))).toBe(text(answer));
          expect((await get(core, 'next', '')).status).toBe(expectedOf(server).code ?? 200);
        }),
        runs(createRuns),
      );
    },
    limitFor(createRuns, 400),
  );

  it(
    `a fetch of any id up to ${maxIdLength} characters, under any scenario (${fetchRuns} runs)`,
    async () => {
      await fc.assert(
        fc.asyncProperty(anyId, splitScenario, async (id, { server, prefer, merged }) => {
          const core = createMockCore({ scenario: server });
          const expected = expectedOf(merged);
          const answer = await get(core, id, preferOf(prefer));
          if (expected.code !== undefined) {
            expect(answer.status).toBe(expected.code);
          } else {
            expect(answer.status, text(answer).slice(0, 300)).toBe(200);
            const record = JSON.parse(text(answer)) as Record<string, unknown>;
            expectValidAs('HumanEvaluation', record, expected.outsideSpec);
            expect(record.id).toBe(id);
          }
          expect(text(await get(core, id, preferOf(prefer)))).toBe(text(answer));
        }),
        runs(fetchRuns),
      );
    },
    limitFor(fetchRuns),
  );
});

const serverRuns = 25;

describe('property: the node:http server delivers what the core answers', () => {
  it(
    `over real sockets, with the scenario as a server option (${serverRuns} runs)`,
    async () => {
      await fc.assert(
        fc.asyncProperty(adapterCase, async (test) => {
          const server = await startMockServer({ port: 0, scenario: test.server });
          try {
            const response = await fetch(`${server.url}${test.path}`, {
              method: test.method,
              headers: test.headers,
              body: test.body,
            });
            await expectDelivered(response, await coreAnswer(test));
            // The server goes on answering.
            expect((await fetch(`${server.url}/human-evaluations/next`)).status).toBeLessThan(600);
          } finally {
            await server.close();
          }
        }),
        runs(serverRuns),
      );
    },
    limitFor(serverRuns, 1000),
  );
});
