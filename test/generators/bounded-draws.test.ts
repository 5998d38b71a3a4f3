import { describe, expect, it } from 'vitest';
import { builtModule, endsWithin } from '../helpers/bounded.js';

/**
 * Every "draw until distinct" has a bound: each draw below asks for more distinct values than its pool holds (7 model
 * names for variant names, 16 evaluator kinds, 12 provider names). Run in a worker: an unbounded loop is terminated
 * there and fails the test, where in this thread it would freeze the suite.
 */
describe('draws past their pool', () => {
  it('names any number of variants of one create distinctly, answers any number of configs, and ends', async () => {
    const source = `
      import { parentPort } from 'node:worker_threads';
      import { evaluationsForRequest } from '${builtModule('dist/generators/index.js')}';
      const answers = [];
      for (const count of [8, 9, 15, 100])
        for (const seed of [1, 2, 3]) {
          const variant_ids = Array.from({ length: count }, (_, i) => 'variant-' + i);
          // More configs than evaluator kinds too: every config is drawn, each of some kind.
          const evaluators_configs = Array.from({ length: count }, (_, i) => 'config-' + i);
          const evaluations = evaluationsForRequest(seed, { app_id: 'app', testset_id: 'set', variant_ids,
            evaluators_configs }, { state: 'EVALUATION_FINISHED' });
          const configs = new Set(evaluations.flatMap((evaluation) =>
            evaluation.aggregated_results.map((result) => result.evaluator_config.id)));
          if (configs.size !== count) throw new Error(count + ' configs asked, ' + configs.size + ' answered');
          answers.push({ count, names: evaluations.map((evaluation) => evaluation.variant_names[0]) });
        }
      parentPort.postMessage(answers);`;
    const answers = await endsWithin<Array<{ count: number; names: string[] }>>(source, 20_000);
    expect(answers).toHaveLength(12);
    for (const { count, names } of answers) {
      expect(names).toHaveLength(count);
      expect(new Set(names).size).toBe(count);
    }
  });
});
