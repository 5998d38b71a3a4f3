import type { ResourceName } from '../schemas/index.js';

/**
 * A record's variants, by what each of its four variant arrays holds: entry i of each describes the same variant
 * (its id, name, revision id, revision). A domain fact the spec's tables imply and the schemas cannot say: the
 * generators draw the arrays together and the judge checks they agree, both from here.
 */
export interface Variants {
  ids: string[];
  names: string[];
  revisionIds: string[];
  revisions: string[];
}

/**
 * The four variant arrays of each record that has them, by what each holds, in record order: the one list of their
 * names (HumanEvaluation spells its revision ids `variants_revision_ids`).
 */
export const variantArrays = {
  HumanEvaluation: {
    ids: 'variant_ids',
    names: 'variant_names',
    revisionIds: 'variants_revision_ids',
    revisions: 'revisions',
  },
  Evaluation: {
    ids: 'variant_ids',
    names: 'variant_names',
    revisionIds: 'variant_revision_ids',
    revisions: 'revisions',
  },
} as const satisfies { [N in ResourceName]?: Record<keyof Variants, string> };

/** The names of a record's variant arrays, in record order; none for a resource that has none. */
export function variantArrayNames(name: ResourceName): string[] {
  const names: { [N in ResourceName]?: Record<keyof Variants, string> } = variantArrays;
  return Object.values(names[name] ?? {});
}
