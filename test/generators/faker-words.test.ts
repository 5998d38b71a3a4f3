import type { Faker, LocaleDefinition, Randomizer } from '@faker-js/faker';
import { faker as baseFaker } from '@faker-js/faker/locale/base';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import english from '../../generators/faker-english.json' with { type: 'json' };
import { fakerWords, type FakerWords } from '../../generators/faker-words.js';
import { SeededRandom } from '../../generators/random.js';

/** faker's own class on the same words, as the generators used it before faker-words.ts. */
const FakerWithRandomizer = baseFaker.constructor as new (options: {
  locale: LocaleDefinition;
  randomizer: Randomizer;
}) => Faker;

const calls = {
  'lorem.word': (words: FakerWords | Faker) => words.lorem.word(),
  'lorem.sentence': (words: FakerWords | Faker) => words.lorem.sentence(),
  'word.adjective': (words: FakerWords | Faker) => words.word.adjective(),
  'word.noun': (words: FakerWords | Faker) => words.word.noun(),
  'word.verb': (words: FakerWords | Faker) => words.word.verb(),
  'person.firstName': (words: FakerWords | Faker) => words.person.firstName(),
  'person.lastName': (words: FakerWords | Faker) => words.person.lastName(),
};
type Call = keyof typeof calls;

/** Each call's text, and where the random stream stands after it. */
function draw(make: (random: SeededRandom) => FakerWords | Faker, seed: number, sequence: Call[]) {
  const random = new SeededRandom(seed);
  const words = make(random);
  return sequence.map((call) => [calls[call](words), random.position()]);
}

describe("faker-words: the recipes' faker calls without faker's class", () => {
  it('draw what faker draws, call for call, leaving the random stream where faker leaves it', () => {
    const faker = (random: SeededRandom) =>
      new FakerWithRandomizer({ locale: english as LocaleDefinition, randomizer: random });
    fc.assert(
      fc.property(
        fc.integer(),
        fc.array(fc.constantFrom(...(Object.keys(calls) as Call[])), { maxLength: 40 }),
        (seed, sequence) => {
          expect(draw(fakerWords, seed, sequence)).toEqual(draw(faker, seed, sequence));
        },
      ),
      { seed: 20261127, numRuns: 300 },
    );
  });

  it('reach every list: double-barrelled last names, female, male and generic first names', () => {
    const random = new SeededRandom(7);
    const words = fakerWords(random);
    const lastNames = Array.from({ length: 400 }, () => words.person.lastName());
    expect(lastNames.some((name) => name.includes('-'))).toBe(true);
    const firstNames = new Set(Array.from({ length: 400 }, () => words.person.firstName()));
    for (const list of Object.values(english.person.first_name))
      expect(list.some((name) => firstNames.has(name))).toBe(true);
  });
});
