import { LruCache } from './lru.js';

/**
 * A keyed hash of a text: HMAC-SHA256 under the key of the user's pseudonym key file (http/pseudonym-key.ts makes it
 * with node:crypto; this module reads no file and imports no `node:` module). 32 bytes.
 */
export type KeyedHash = (text: string) => Uint8Array;

const objectId = /^[0-9a-f]{24}$/i;
const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Another hex identifier (a hash, a UUID without hyphens): long, digits and hex letters, maybe hyphens. */
const hexId = /^(?=[^g-z]*[0-9])(?=[^g-z]*[a-f])[0-9a-f-]{16,}$/i;

/** Characters a pseudonym keeps as they are: white space, controls, ASCII punctuation. They name no one. */
const keptCharacter = /^[\p{Z}\p{Cc}!-/:-@[-`{-~]$/u;
const digitCharacter = /^\p{Nd}$/u;
const upperCharacter = /^[\p{Lu}\p{Lt}]$/u;

const hexDigits = '0123456789abcdef';
const digits = '0123456789';
const lowerLetters = 'abcdefghijklmnopqrstuvwxyz';
const upperLetters = lowerLetters.toUpperCase();

/** The bytes of a keyed hash of the original, drawn one at a time, as many as a long text needs. */
class Draws {
  private block = 0;
  private bytes: Uint8Array = new Uint8Array(0);
  private at = 0;

  constructor(
    private readonly hash: KeyedHash,
    private readonly original: string,
    private readonly round: number,
  ) {}

  byte(): number {
    if (this.at >= this.bytes.length) {
      // The round and block lead, separated from the original by a NUL: no original can pose as another's block.
      this.bytes = this.hash(`${this.round}.${this.block++}\u0000${this.original}`);
      this.at = 0;
    }
    return this.bytes[this.at++] as number;
  }

  pick(alphabet: string): string {
    return alphabet[this.byte() % alphabet.length] as string;
  }
}

/** Hex digits in the case the original writes its letters: upper only when it has upper-case ones and no others. */
function hexCase(original: string): (digit: string) => string {
  return /[A-F]/.test(original) && !/[a-f]/.test(original) ? (digit) => digit.toUpperCase() : (digit) => digit;
}

/** An ObjectId: its first 8 hex digits (the second it was made, which dates the record) kept, the other 16 drawn. */
function objectIdLike(original: string, draws: Draws): string {
  const cased = hexCase(original);
  let fake = original.slice(0, 8);
  for (let index = 8; index < 24; index++) fake += cased(draws.pick(hexDigits));
  return fake;
}

/**
 * A UUID: its version and variant kept, and for a UUIDv7 its first 48 bits too (the millisecond it was made); every
 * other bit drawn.
 */
function uuidLike(original: string, draws: Draws): string {
  const cased = hexCase(original);
  const nibbles = original.replace(/-/g, '');
  const kept = nibbles[12] === '7' ? 13 : 0;
  let fake = '';
  for (let index = 0; index < 32; index++) {
    const nibble = nibbles[index] as string;
    if (index < kept || index === 12) fake += nibble;
    else if (index === 16) fake += cased(((parseInt(nibble, 16) & 0b1100) | (draws.byte() & 0b0011)).toString(16));
    else fake += cased(draws.pick(hexDigits));
  }
  return [fake.slice(0, 8), fake.slice(8, 12), fake.slice(12, 16), fake.slice(16, 20), fake.slice(20)].join('-');
}

/** Another hex identifier: each hex digit drawn, hyphens where they were. */
function hexIdLike(original: string, draws: Draws): string {
  const cased = hexCase(original);
  return original.replace(/[0-9a-f]/gi, () => cased(draws.pick(hexDigits)));
}

/** A percent-encoded byte (`%2F`, in a URL a text holds), or one character. */
const textPiece = /%[0-9A-Fa-f]{2}|./gsu;

/**
 * Free text (a name, a model's output): as many characters, each of its kind drawn (a digit for a digit, a capital
 * for a capital, a small letter for any other letter or symbol), white space and ASCII punctuation kept, so the text
 * keeps its length, its words and its lines; a percent-encoded byte stays one (its hex digits drawn), so a URL stays
 * one.
 */
function textLike(original: string, draws: Draws): string {
  let fake = '';
  for (const [character] of original.matchAll(textPiece)) {
    if (character.length === 3 && character.startsWith('%'))
      fake += `%${hexCase(character)(draws.pick(hexDigits))}${hexCase(character)(draws.pick(hexDigits))}`;
    else if (keptCharacter.test(character)) fake += character;
    else if (digitCharacter.test(character)) fake += draws.pick(digits);
    else if (upperCharacter.test(character)) fake += draws.pick(upperLetters);
    else fake += draws.pick(lowerLetters);
  }
  return fake;
}

/** How a text is disguised, by its form. */
function formOf(original: string): (original: string, draws: Draws) => string {
  if (objectId.test(original)) return objectIdLike;
  if (uuid.test(original)) return uuidLike;
  if (hexId.test(original)) return hexIdLike;
  return textLike;
}

/** Draws again when a round gives back the original (a one-digit text does one time in ten); more is never needed. */
const maxRounds = 16;

/** Pseudonyms remembered, so the values a recording repeats (ids, names) are drawn once each. */
const cachedPseudonyms = 10_000;

/**
 * The pseudonym of each personal value: drawn from a keyed hash of the original alone, so the same original has the
 * same pseudonym in every file, field and run under one key, and nobody without the key can tell the original from
 * it. It keeps the original's form: an ObjectId or a UUID stays one (and keeps the moment it carries), another hex id
 * keeps its length and hyphens, free text its length, case, white space and punctuation.
 */
export class Pseudonyms {
  private readonly known = new LruCache<string, string>(cachedPseudonyms);

  constructor(private readonly hash: KeyedHash) {}

  of(original: string): string {
    const known = this.known.get(original);
    if (known !== undefined) return known;
    const form = formOf(original);
    let fake = original;
    for (let round = 0; round < maxRounds && fake === original; round++)
      fake = form(original, new Draws(this.hash, original, round));
    this.known.set(original, fake);
    return fake;
  }
}
