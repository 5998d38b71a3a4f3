import type { Randomizer } from '@faker-js/faker';
import english from './faker-english.json' with { type: 'json' };

/** The faker calls the recipes make: the words, sentences and names a generated record carries. */
export interface FakerWords {
  lorem: { word(): string; sentence(): string };
  word: { adjective(): string; noun(): string; verb(): string };
  person: { firstName(): string; lastName(): string };
}

type Sex = 'female' | 'male';
type BySex<T> = { generic?: T[]; female?: T[]; male?: T[] };
type Weighted<T> = { weight: number; value: T };

const lastNamePlaceholder = /\{\{person\.last_name\.(generic|female|male)\}\}/g;

/**
 * faker 10's English words, names and sentences, drawn from `random` exactly as faker's own methods draw them (the
 * same calls of next() in the same order, so a seed gives the same text), without faker's class: its modules are
 * about 150 KB of a browser bundle that uses none of them but these. The words are faker-english.json
 * (scripts/extract-faker-locale.ts); a test draws from both and compares.
 */
export function fakerWords(random: Randomizer): FakerWords {
  // faker's number.int({ min, max }): no draw when the range holds one integer.
  const int = (min: number, max: number) => (min === max ? min : Math.floor(random.next() * (max - min + 1) + min));
  const arrayElement = <T>(list: readonly T[]): T => list[list.length > 1 ? int(0, list.length - 1) : 0] as T;
  const weightedArrayElement = <T>(list: readonly Weighted<T>[]): T => {
    const total = list.reduce((sum, { weight }) => sum + weight, 0);
    const drawn = random.next() * total;
    let reached = 0;
    for (const { weight, value } of list) if (drawn < (reached += weight)) return value;
    return (list[list.length - 1] as Weighted<T>).value;
  };
  // faker's selectDefinition: a sex is drawn first, then its list or the generic one, weighted by their sizes.
  const bySex = <T>(definition: BySex<T>): T[] => {
    const own = definition[arrayElement<Sex>(['female', 'male'])];
    const { generic } = definition;
    if (own == null) return generic ?? [];
    if (generic == null) return own;
    return weightedArrayElement([
      { weight: 3 * Math.sqrt(own.length), value: own },
      { weight: Math.sqrt(generic.length), value: generic },
    ]);
  };
  const { lorem, word, person } = english;
  const loremWord = () => arrayElement(lorem.word);
  return {
    lorem: {
      word: loremWord,
      sentence: () => {
        const text = Array.from({ length: int(3, 10) }, loremWord).join(' ');
        return `${text.charAt(0).toUpperCase()}${text.substring(1)}.`;
      },
    },
    word: {
      adjective: () => arrayElement(word.adjective),
      noun: () => arrayElement(word.noun),
      verb: () => arrayElement(word.verb),
    },
    person: {
      firstName: () => arrayElement(bySex<string>(person.first_name)),
      // faker's helpers.fake fills the pattern's placeholders left to right, one draw each.
      lastName: () =>
        weightedArrayElement(bySex<Weighted<string>>(person.last_name_pattern)).replace(
          lastNamePlaceholder,
          (_placeholder, sex: keyof BySex<string>) => arrayElement((person.last_name as BySex<string>)[sex] ?? []),
        ),
    },
  };
}
