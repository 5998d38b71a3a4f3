import type { JsonSchema } from './index.js';

/**
 * The annotation that marks a field as personal (schemas/*.json): its values say who someone is or what they and
 * their models wrote (a user's id and name, an app's, a variant's, a test set's, a model's output), so a recording
 * that teams commit carries pseudonyms in their place (`--pseudonymize`). One annotation per field, read from the
 * schemas, never from a list in code:
 *
 * - `"x-personal": true` on a property: every string at that value, at any depth below it, is personal;
 * - `"x-personal": false` beside a `$ref`: nothing below is, whatever the referenced schema marks (an Evaluation's
 *   `status` is a Result whose value is a state, not a model's output);
 * - the first mark met on the way down from a record's root decides.
 *
 * It validates nothing: ajv's strict mode refuses a keyword it does not know, so the validators register it as an
 * annotation (`personalKeywordDefinition`), and the OpenAPI document carries it as a specification extension.
 */
export const personalKeyword = 'x-personal';

/** ajv's definition of the annotation: a boolean, no validation code. */
export const personalKeywordDefinition = { keyword: personalKeyword, schemaType: 'boolean' } as const;

/** The mark a schema node carries, or undefined for none. */
export function personalMark(schema: JsonSchema | undefined): boolean | undefined {
  const mark = schema?.[personalKeyword];
  return typeof mark === 'boolean' ? mark : undefined;
}
