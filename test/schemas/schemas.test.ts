import { describe, expect, it } from 'vitest';
import {
  declaredProperties,
  dereference,
  requiredProperties,
  resourceNames,
  schemaFor,
  schemaNames,
  schemas,
  type JsonSchema,
  type ResourceName,
} from '../../schemas/index.js';
import { personalKeyword } from '../../schemas/personal.js';
import { specAvailable, specTables } from '../helpers/spec-tables.js';

const refTo = (resource: ResourceName) => ({ $ref: (schemas[resource].$id as string).split('/').pop() });

/** Keywords that say something of a field but nothing of its shape: its description, whether it is personal. */
const annotations = ['description', personalKeyword];

/** What each type phrase of the spec means as JSON Schema. */
const typePhrases: Record<string, (schema: JsonSchema) => void> = {
  string: (schema) => expect(schema).toEqual({ type: 'string' }),
  'string, date-time': (schema) => expect(schema).toEqual({ type: 'string', format: 'date-time' }),
  'array of string': (schema) => expect(schema).toEqual({ type: 'array', items: { type: 'string' } }),
  integer: (schema) => expect(schema).toEqual({ type: 'integer' }),
  // Any keys and any values; said explicitly, since some tools (openapi-typescript) read a bare object as an empty one.
  object: (schema) => expect(schema).toEqual({ type: 'object', additionalProperties: true }),
  'untyped value': (schema) => expect(Object.keys(schema).filter((key) => !annotations.includes(key))).toEqual([]),
  'Result object (2.3)': (schema) => expect(schema).toEqual(refTo('Result')),
  'Error object': (schema) => expect(schema).toEqual(refTo('Error')),
  'array of AggregatedResult (2.4)': (schema) =>
    expect(schema).toEqual({ type: 'array', items: refTo('AggregatedResult') }),
  EvaluatorConfig: (schema) => expect(schema.anyOf).toContainEqual(refTo('EvaluatorConfig')),
  'object (below)': (schema) => expect(schema).toEqual(refTo('RateLimit')),
  'object: arbitrary property names, string values': (schema) =>
    expect(schema).toMatchObject({ type: 'object', additionalProperties: { type: 'string' } }),
};

describe.skipIf(!specAvailable)('schemas match the spec tables field for field', () => {
  const tables = specAvailable ? specTables() : new Map();
  it('cover every field table of the spec', () => {
    expect([...tables.keys()].sort()).toEqual(
      resourceNames.filter((name) => name !== 'UndocumentedEvaluatorConfig').sort(),
    );
  });
  for (const [resource, fields] of tables as Map<
    ResourceName,
    Array<{ field: string; type: string; required: boolean }>
  >) {
    it(`${resource}: same fields, types and required marks`, () => {
      expect(declaredProperties(resource)).toEqual(fields.map((field) => field.field));
      expect(requiredProperties(resource).sort()).toEqual(
        fields
          .filter((field) => field.required)
          .map((field) => field.field)
          .sort(),
      );
      const properties = schemas[resource].properties as Record<string, JsonSchema>;
      for (const field of fields) {
        const check = typePhrases[field.type];
        expect(check, `type phrase "${field.type}" of ${resource}.${field.field}`).toBeDefined();
        const shape = Object.fromEntries(
          Object.entries(properties[field.field]!).filter(([keyword]) => !annotations.includes(keyword)),
        );
        check!(field.type === 'untyped value' ? properties[field.field]! : shape);
      }
    });
  }
});

describe('every schema', () => {
  it.each(schemaNames)('%s has $id, title, description in the spec words, and examples', (name) => {
    const schema = schemaFor(name);
    expect(schema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(schema.$id).toMatch(/^https:\/\/evalkit\.dev\/schemas\/[a-z-]+\.json$/);
    expect(schema.title).toBe(name);
    expect(String(schema.description).length).toBeGreaterThan(20);
    expect((schema.examples as unknown[]).length).toBeGreaterThan(0);
  });

  it('leaves responses open to fields the spec does not list', () => {
    for (const name of schemaNames) expect(schemaFor(name).additionalProperties, name).toBeUndefined();
  });

  it('models evaluator_config as the documented alternative or one disjoint from it', () => {
    const anyOf = (schemas.AggregatedResult.properties as Record<string, JsonSchema>).evaluator_config!
      .anyOf as JsonSchema[];
    expect(anyOf.map((branch) => dereference(branch).title)).toEqual([
      'EvaluatorConfig',
      'UndocumentedEvaluatorConfig',
    ]);
    expect(schemas.UndocumentedEvaluatorConfig.not).toEqual(refTo('EvaluatorConfig'));
  });
});
