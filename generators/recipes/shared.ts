import type { Variants } from '../../api/variant-arrays.js';
import type { GenerationContext } from '../context.js';
import type { Recipe } from '../walker.js';

/** Draws used by several resources, so the same kind of value looks the same everywhere. */

const models = [
  'gpt-4o',
  'gpt-4o-mini',
  'claude-3-5-sonnet',
  'mistral-large',
  'llama-3-70b',
  'gemini-1.5-pro',
  'command-r',
];
const appKinds = ['bot', 'assistant', 'qa', 'summarizer', 'rag', 'classifier', 'copilot'];
const testsetKinds = ['questions', 'qa_pairs', 'golden_set', 'regression', 'edge_cases', 'eval_set'];

export type { Variants } from '../../api/variant-arrays.js';
export { variantArrays } from '../../api/variant-arrays.js';

/** A recipe's values for a record's variant arrays, each the plan's drawn variants. */
export function variantValues<Plan extends { variants: Variants }>(
  names: Readonly<Record<keyof Variants, string>>,
): Recipe<Plan, never>['values'] {
  const kinds = Object.keys(names) as Array<keyof Variants>;
  return Object.fromEntries(kinds.map((kind) => [names[kind], (_ctx: unknown, plan: Plan) => plan.variants[kind]]));
}

/** The four variant arrays of one record, always of one length. */
export function drawVariants(
  ctx: GenerationContext,
  count: number,
  atMicros: number,
  fixedIds?: readonly string[],
): Variants {
  const app = ctx.faker.word.noun();
  const kind = ctx.pick(appKinds);
  const variants: Variants = { ids: [], names: [], revisionIds: [], revisions: [] };
  for (let i = 0; i < count; i++) {
    variants.ids.push(fixedIds?.[i] ?? ctx.id(atMicros));
    // An app's variants have distinct names: a model already named gives way to the next one in the list (a name
    // drawn without a clash stays as it was), and a hostile name (edge) drawn twice is told apart by its place.
    const prefix = `${app}-${kind}.`;
    const name = ctx.text(() => {
      if (i === 0 && ctx.chance(0.5)) return `${prefix}default`;
      return distinctModelName(prefix, models.indexOf(ctx.pick(models)), variants.names);
    });
    const revisionId = ctx.id(atMicros);
    const revision = String(ctx.int(1, 24));
    // A variant id given twice is one variant: its first draw stands (drawn all the same, so no later value moves).
    const first = fixedIds ? fixedIds.indexOf(fixedIds[i] as string) : i;
    if (first >= 0 && first < i) {
      variants.names.push(variants.names[first] as string);
      variants.revisionIds.push(variants.revisionIds[first] as string);
      variants.revisions.push(variants.revisions[first] as string);
      continue;
    }
    variants.names.push(variants.names.includes(name) ? `${name} (${i + 1})` : name);
    variants.revisionIds.push(revisionId);
    variants.revisions.push(revision);
  }
  return variants;
}

/**
 * The first model name from `start` on that no variant holds yet. Once every model is named, the models come round
 * again with a round number (`gpt-4o-2`), as a team names a second prompt on one model: an A/B/n page may compare any
 * number of variants, and the search ends within one pass per variant already named.
 */
function distinctModelName(prefix: string, start: number, taken: readonly string[]): string {
  for (let round = 1; round <= taken.length + 1; round++) {
    for (let step = 0; step < models.length; step++) {
      const model = models[(start + step) % models.length] as string;
      const name = round === 1 ? `${prefix}${model}` : `${prefix}${model}-${round}`;
      if (!taken.includes(name)) return name;
    }
  }
  // Unreachable: `taken` holds fewer names than the rounds above offer; a name told apart by its place is still unique.
  return `${prefix}${models[start]}-${taken.length + 1}`;
}

/** Shaped like faker's internet.username() ("Kurt_Rice", "Aaliyah.Bosco42") at a tenth of its cost. */
export function drawUsername(ctx: GenerationContext): string {
  return ctx.text(() => {
    const first = ctx.faker.person.firstName();
    const last = ctx.faker.person.lastName();
    return `${first}${ctx.pick(['.', '_', ''])}${last}${ctx.chance(0.3) ? ctx.int(1, 99) : ''}`.replace(
      /[^A-Za-z0-9._-]/g,
      '',
    );
  });
}

export function drawTestsetName(ctx: GenerationContext): string {
  return ctx.text(() => `${ctx.faker.word.noun()}_${ctx.pick(testsetKinds)}`);
}

export interface Period {
  createdAt: number;
  updatedAt: number;
}

/**
 * created_at <= updated_at always; equal when nothing happened since creation. `before` keeps both moments earlier
 * than it (a config predates its use).
 */
export function drawPeriod(ctx: GenerationContext, unchanged: boolean, bounds: { before?: number } = {}): Period {
  const createdAt = bounds.before === undefined ? ctx.instant() : earlier(ctx, bounds.before);
  // Drawn even when unused: `unchanged` follows the state, and the state must not shift the draws after this one.
  const since = ctx.int(1, 3600) * 1_000_000 + ctx.int(0, 999_999);
  const updatedAt = unchanged ? createdAt : Math.min(createdAt + since, bounds.before ?? Infinity);
  return { createdAt, updatedAt };
}

/** A moment before `micros`: referenced things (apps, users, configs) exist before what refers to them. */
export function earlier(ctx: GenerationContext, micros: number): number {
  return micros - ctx.int(3600, 90 * 86400) * 1_000_000;
}
