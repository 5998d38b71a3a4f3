import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runContract, type Report } from '../../contract/index.js';
import { fieldPattern } from '../../contract/judge/schema-walk.js';
import { mutation } from './bank.js';
import { startConformingServer, type RunningServer } from './conforming-server.js';
import { limitFor, runs } from '../properties/runs.js';

/**
 * Planted faults whose causes all differ: each fails its checks for a cause none of the others has (two on one check
 * are two causes: a 500 to invalid bodies and a 503 to a valid one, an echo in a 422 body, in a header and in a
 * success body, text/plain and an HTML page). None needs the bank's create body of two variants, so each is found
 * under any seed's generated body.
 */
const faults = [
  'required user_username missing from HumanEvaluation',
  'date-time with a space instead of T',
  'null inside variant_ids',
  'revisions as integers instead of strings',
  '500 instead of 422 for an invalid create request',
  '503 for a valid create request',
  'plain-text 500 for an unknown id',
  'lm_providers_keys echoed in each created Evaluation',
  'lm_providers_keys echoed in 422 errors',
  'a provider key echoed in a response header',
  'invalid create requests accepted with 200',
  'success served as text/plain',
  'an HTML page instead of JSON',
  'optional fields sent as null (testset_name, average_cost)',
  'a release that takes only its own provider key names',
  'variant arrays of unequal length',
  'create answers one Evaluation object instead of an array',
  'an unknown id answered with 200',
] as const;

const servers = new Map<string, RunningServer>();
beforeAll(async () => {
  for (const fault of faults) servers.set(fault, await startConformingServer(mutation(fault)));
});
afterAll(async () => {
  await Promise.all([...servers.values()].map((server) => server.close()));
});

/**
 * Each failed check's finding ids, from a run of this seed against the fault: generated bodies (their variants, key
 * names, ids), canaries and property cases all differ from one seed to the next. A few property cases, so the
 * properties' counterexamples have ids too.
 */
async function idsFound(fault: string, seed: string): Promise<Record<string, string[]>> {
  const report: Report = await runContract({ baseUrl: servers.get(fault)?.url as string, seed, examples: 4 });
  const failed = report.checks.filter((check) => check.outcome === 'failed');
  return Object.fromEntries(failed.map((check) => [check.id, (check.ids ?? []).map(({ id }) => id).sort()]));
}

describe('finding ids', () => {
  it(
    'property: the same planted fault under two seeds gives the same ids, check by check',
    async () => {
      await fc.assert(
        fc.asyncProperty(fc.constantFrom(...faults), fc.string(), fc.string(), async (fault, one, other) => {
          const [first, second] = [await idsFound(fault, one), await idsFound(fault, other)];
          expect(Object.keys(first).length, fault).toBeGreaterThan(0);
          expect(second, fault).toEqual(first);
        }),
        runs(20),
      );
    },
    limitFor(40, 500),
  );

  it('two different causes give different ids: no id is found for two of the faults', async () => {
    const byId = new Map<string, string[]>();
    for (const fault of faults)
      for (const [check, ids] of Object.entries(await idsFound(fault, 'causes')))
        for (const id of ids) byId.set(id, [...(byId.get(id) ?? []), `${fault}: ${check}`]);
    const shared = [...byId].filter(([, where]) => where.length > 1);
    expect(shared).toEqual([]);
    // Each fault found, each with ids of its own.
    expect(new Set([...byId.values()].map(([where]) => where?.split(':')[0])).size).toBe(faults.length);
  });

  it('name a field as the schema does: array indices and the keys of a declared map as *, declared names kept', () => {
    expect(fieldPattern('CreateEvaluationRequest', '/lm_providers_keys/OPENAI_API_KEY')).toBe('/lm_providers_keys/*');
    expect(fieldPattern('CreateEvaluationRequest', '/variant_ids/3')).toBe('/variant_ids/*');
    expect(fieldPattern('Evaluation', '/aggregated_results/2/evaluator_config/settings_values/temperature')).toBe(
      '/aggregated_results/*/evaluator_config/settings_values/*',
    );
    expect(fieldPattern('HumanEvaluation', '/user_username')).toBe('/user_username');
    // A field the schema does not declare keeps its name: the deployment chose it, and it is the same every run.
    expect(fieldPattern('HumanEvaluation', '/extra/7/note')).toBe('/extra/*/note');
  });
});
