import { createHmac } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { Pseudonyms, type KeyedHash } from '../../http/pseudonym.js';
import { Pseudonymizer } from '../../http/pseudonymizer.js';
import { personalKeywordDefinition } from '../../schemas/personal.js';
import { formats } from '../../schemas/validators/formats.js';
import { runs } from '../properties/runs.js';

/** The keyed hash `--pseudonymize` uses (http/pseudonym-key.ts), under a key made of one byte. */
function hashUnder(byte: number): KeyedHash {
  const key = Buffer.alloc(32, byte);
  return (text) => createHmac('sha256', key).update(text, 'utf8').digest();
}

const keptCharacter = /^[\p{Z}\p{Cc}!-/:-@[-`{-~]$/u;

/** A free text's pieces: a percent-encoded byte, or one character. */
const pieces = (text: string) => [...text.matchAll(/%[0-9A-Fa-f]{2}|./gsu)].map(([piece]) => piece);

/** What each piece of a free text is: a percent-encoded byte, kept as is, a digit, a capital, another character. */
function shape(text: string): string[] {
  return pieces(text).map((character) =>
    character.length === 3
      ? 'percent-encoded byte'
      : keptCharacter.test(character)
        ? character
        : /^\p{Nd}$/u.test(character)
          ? 'digit'
          : /^[\p{Lu}\p{Lt}]$/u.test(character)
            ? 'capital'
            : 'letter',
  );
}

/** What a pseudonym's characters are, read as the original's kinds are: a drawn letter is ASCII. */
function drawnShape(text: string): string[] {
  return pieces(text).map((character) =>
    character.length === 3
      ? 'percent-encoded byte'
      : keptCharacter.test(character)
        ? character
        : /^[0-9]$/.test(character)
          ? 'digit'
          : /^[A-Z]$/.test(character)
            ? 'capital'
            : /^[a-z]$/.test(character)
              ? 'letter'
              : `not drawn: ${character}`,
  );
}

const hex = (length: number, upper = false) =>
  fc.string({
    unit: fc.constantFrom(...(upper ? '0123456789ABCDEF' : '0123456789abcdef')),
    minLength: length,
    maxLength: length,
  });

const objectIds = fc.tuple(hex(24), fc.boolean()).map(([id, upper]) => (upper ? id.toUpperCase() : id));

/** UUIDv7s: 48 bits of a millisecond, the version, 12 random bits, the variant `10`, 62 random bits. */
const uuidV7s = fc
  .tuple(hex(12), hex(3), fc.constantFrom('8', '9', 'a', 'b'), hex(15), fc.boolean())
  .map(([time, randA, variant, randB, upper]) => {
    const nibbles = `${time}7${randA}${variant}${randB}`;
    const id = [
      nibbles.slice(0, 8),
      nibbles.slice(8, 12),
      nibbles.slice(12, 16),
      nibbles.slice(16, 20),
      nibbles.slice(20),
    ].join('-');
    return upper ? id.toUpperCase() : id;
  });

/** Free text of any kind: names, outputs, emoji, right-to-left scripts, lone surrogates, controls. */
const texts = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 60 }),
  fc.string({ unit: 'binary', maxLength: 60 }),
  fc.string({ maxLength: 60 }),
  fc.constantFrom('jane.doe', 'Avery_Quigley', 'עברית RTL', '🚀🧪 eval 👩🏽‍💻', ' leading and trailing spaces ', ''),
  fc.webUrl({ withQueryParameters: true }),
);

describe('pseudonyms: a keyed hash of the original alone, in its form', () => {
  it('free text keeps its length in characters, each character of its kind, white space and punctuation', () => {
    const pseudonyms = new Pseudonyms(hashUnder(1));
    fc.assert(
      fc.property(texts, (original) => {
        const fake = pseudonyms.of(original);
        if (/^[0-9a-f-]+$/i.test(original) && original.length >= 16) return;
        expect(drawnShape(fake)).toEqual(shape(original));
      }),
      runs(400),
    );
  });

  it('the same original gives the same pseudonym under the same key, from any instance; another key another', () => {
    fc.assert(
      fc.property(fc.oneof(texts, objectIds, uuidV7s), (original) => {
        const fake = new Pseudonyms(hashUnder(1)).of(original);
        expect(new Pseudonyms(hashUnder(1)).of(original)).toBe(fake);
        // Eight drawn characters or more: two keys agree on all of them once in 10^11 or rarer.
        const drawn = shape(original).filter((kind) => kind === 'letter' || kind === 'capital').length;
        if (drawn >= 8) expect(new Pseudonyms(hashUnder(2)).of(original)).not.toBe(fake);
      }),
      runs(300),
    );
  });

  it('never gives back an original that has a character to draw', () => {
    const pseudonyms = new Pseudonyms(hashUnder(3));
    fc.assert(
      fc.property(texts, (original) => {
        const drawable = shape(original).some((kind) =>
          ['letter', 'capital', 'digit', 'percent-encoded byte'].includes(kind),
        );
        if (drawable) expect(pseudonyms.of(original)).not.toBe(original);
        else expect(pseudonyms.of(original)).toBe(original);
      }),
      runs(400),
    );
    // A one-digit text is drawn again when a round gives it back: each of the ten has a pseudonym of its own kind.
    for (const digit of '0123456789') expect(pseudonyms.of(digit)).toMatch(/^[0-9]$/);
    for (const digit of '0123456789') expect(pseudonyms.of(digit)).not.toBe(digit);
  });

  it('an ObjectId stays one, its first 8 hex digits (the second it was made) and its case kept', () => {
    const pseudonyms = new Pseudonyms(hashUnder(4));
    fc.assert(
      fc.property(objectIds, (original) => {
        const fake = pseudonyms.of(original);
        expect(fake).toMatch(
          original === original.toUpperCase() && /[A-F]/.test(original) ? /^[0-9A-F]{24}$/ : /^[0-9a-f]{24}$/,
        );
        expect(fake.slice(0, 8)).toBe(original.slice(0, 8));
        expect(fake).not.toBe(original);
      }),
      runs(300),
    );
  });

  it('a UUIDv7 stays one: its millisecond, version and variant kept, the rest drawn', () => {
    const pseudonyms = new Pseudonyms(hashUnder(5));
    fc.assert(
      fc.property(uuidV7s, (original) => {
        const fake = pseudonyms.of(original);
        expect(fake).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i);
        expect(fake.slice(0, 15)).toBe(original.slice(0, 15));
        expect(fake === fake.toUpperCase()).toBe(original === original.toUpperCase());
        expect(fake).not.toBe(original);
      }),
      runs(300),
    );
  });

  it('another hex id keeps its length and hyphens, each hex digit drawn as one', () => {
    const pseudonyms = new Pseudonyms(hashUnder(6));
    const original = '9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08';
    const fake = pseudonyms.of(original);
    expect(fake).toMatch(/^[0-9a-f]{64}$/);
    expect(fake).not.toBe(original);
    expect(pseudonyms.of('01957c21-e5bc-4384-9107-5d9e8bf94c17')).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
  });
});

describe('a pseudonym stays valid where its original was: lengths, patterns of character kinds, formats', () => {
  const schema = {
    type: 'object',
    properties: {
      email: { type: 'string', format: 'email', 'x-personal': true },
      handle: { type: 'string', pattern: '^[a-z][a-z0-9_.-]{2,15}$', minLength: 3, maxLength: 16, 'x-personal': true },
      name: { type: 'string', pattern: '^[A-Z][a-z]+ [A-Z][a-z]+$', 'x-personal': true },
      phone: { type: 'string', pattern: '^\\+[0-9]{6,14}$', 'x-personal': true },
      site: { type: 'string', format: 'uri', 'x-personal': true },
    },
  };
  const ajv = new Ajv2020({ strict: true, allErrors: true });
  for (const [name, definition] of Object.entries(formats)) ajv.addFormat(name, definition);
  ajv.addKeyword(personalKeywordDefinition);
  const check = ajv.compile(schema);

  it('any value valid for a field of such a schema is valid once pseudonymized (property)', () => {
    const pseudonymizer = new Pseudonymizer(hashUnder(7));
    fc.assert(
      fc.property(
        fc.record({
          email: fc.emailAddress(),
          handle: fc.stringMatching(/^[a-z][a-z0-9_.-]{2,15}$/),
          name: fc.stringMatching(/^[A-Z][a-z]{1,12} [A-Z][a-z]{1,12}$/),
          phone: fc.stringMatching(/^\+[0-9]{6,14}$/),
          site: fc.webUrl(),
        }),
        (record) => {
          fc.pre(check(record));
          const rewritten = pseudonymizer.body(schema, structuredClone(record)) as typeof record;
          expect(check(rewritten), JSON.stringify({ record, rewritten, errors: check.errors })).toBe(true);
          expect(rewritten.handle).not.toBe(record.handle);
        },
      ),
      runs(300),
    );
  });
});
