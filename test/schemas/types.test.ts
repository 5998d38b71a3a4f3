import { readFile } from 'node:fs/promises';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { generators } from '../../generators/index.js';
import type { CreateEvaluationRequest, Evaluation, HumanEvaluation, Result } from '../../schemas/types/resources.js';
import { renderResourceTypes } from '../../schemas/types/render.js';

describe('TypeScript types derive from the schemas', () => {
  it('types/resources.ts is exactly what the schemas render to (`npm run types` after changing a schema)', async () => {
    const committed = await readFile(new URL('../../schemas/types/resources.ts', import.meta.url), 'utf8');
    expect(committed).toBe(await renderResourceTypes());
  });

  it('generators return the generated types', () => {
    expectTypeOf(generators.HumanEvaluation).returns.toEqualTypeOf<HumanEvaluation>();
    expectTypeOf(generators.Evaluation(1).status).toEqualTypeOf<Result>();
    expectTypeOf<Evaluation['testset_id']>().toEqualTypeOf<string | undefined>();
    expectTypeOf<CreateEvaluationRequest['rate_limit']['batch_size']>().toEqualTypeOf<number>();
    expectTypeOf<Result['value']>().toEqualTypeOf<unknown>();
  });
});
