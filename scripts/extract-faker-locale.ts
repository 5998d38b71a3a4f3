import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { faker as englishFaker } from '@faker-js/faker/locale/en';

/**
 * Writes generators/faker-english.json: the parts of faker's English locale the recipes draw from. The whole locale
 * is about 115 KB gzipped, this part about 27 KB, which keeps the browser bundle small (`npm run faker:locale` after a
 * faker upgrade or a recipe that calls another faker method; a test compares the file with faker).
 */
const used = {
  lorem: ['word'],
  word: ['adjective', 'noun', 'verb'],
  person: ['first_name', 'last_name', 'last_name_pattern'],
} as const;

const definitions = englishFaker.rawDefinitions as unknown as Record<string, Record<string, unknown>>;
const subset = Object.fromEntries(
  Object.entries(used).map(([module, keys]) => [
    module,
    Object.fromEntries(keys.map((key) => [key, definitions[module]?.[key]])),
  ]),
);
const file = fileURLToPath(new URL('../../generators/faker-english.json', import.meta.url));
writeFileSync(file, `${JSON.stringify(subset)}\n`);
process.stderr.write(`wrote ${file}\n`);
