import fc from 'fast-check';
import { providerKeyNames } from '../../generators/vocabulary.js';
import { dereference as resolve, schemas, type JsonSchema, type ResourceName } from '../../schemas/index.js';

/**
 * Property names of a map (the create request's only one is lm_providers_keys, whose names the spec leaves
 * arbitrary): the service's well-known provider names and any Unicode string, so a deployment that takes only its
 * own list meets names outside it.
 */
const mapKey = fc.oneof(
  fc.constantFrom(...providerKeyNames),
  fc.string({ unit: 'grapheme', minLength: 1, maxLength: 16 }),
);

/**
 * A fast-check arbitrary of the instances a schema accepts, built from the schema alone. fast-check shrinks what it
 * builds, so a failing body shrinks towards the fewest optional fields, the shortest arrays and strings and the
 * smallest integers.
 */
function arbitraryOf(given: JsonSchema): fc.Arbitrary<unknown> {
  const schema = resolve(given);
  switch (schema.type) {
    case 'string':
      return fc.string({ maxLength: 24 });
    case 'integer':
      return fc.integer();
    case 'number':
      return fc.double({ noNaN: true, noDefaultInfinity: true });
    case 'boolean':
      return fc.boolean();
    case 'array':
      return fc.array(arbitraryOf((schema.items as JsonSchema | undefined) ?? {}), { maxLength: 4 });
    case 'object': {
      const properties = (schema.properties as Record<string, JsonSchema> | undefined) ?? {};
      const additional = schema.additionalProperties as JsonSchema | undefined;
      if (Object.keys(properties).length === 0 && additional) {
        return fc.dictionary(mapKey, arbitraryOf(additional), { maxKeys: 3 });
      }
      const record = Object.fromEntries(Object.entries(properties).map(([key, child]) => [key, arbitraryOf(child)]));
      return fc.record(record, { requiredKeys: (schema.required as string[] | undefined) ?? [] });
    }
    default:
      return fc.jsonValue();
  }
}

export function arbitraryFor(name: ResourceName): fc.Arbitrary<unknown> {
  return arbitraryOf(schemas[name]);
}
