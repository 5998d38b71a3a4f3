import { faker as englishFaker } from '@faker-js/faker/locale/en';
import { describe, expect, it } from 'vitest';
import english from '../../generators/faker-english.json' with { type: 'json' };

describe('faker-english.json, the part of faker English the recipes use', () => {
  it('equals faker English, key for key, so generated text is what the whole locale would give', () => {
    const definitions = englishFaker.rawDefinitions as unknown as Record<string, Record<string, unknown>>;
    for (const [module, entries] of Object.entries(english as Record<string, Record<string, unknown>>)) {
      for (const [key, value] of Object.entries(entries))
        expect(value, `${module}.${key}`).toEqual(definitions[module]?.[key]);
    }
  });
});
