import { fakerWords, type FakerWords } from './faker-words.js';
import type { Profile } from './profile.js';
import type { IdStyle } from './vocabulary.js';
import { SeededRandom, seedFrom } from './random.js';

/** The recent window every generated timestamp falls in: fixed, so output never depends on the day it is made. */
const windowStart = Date.UTC(2025, 0, 1);
const windowEnd = Date.UTC(2026, 9, 31);
/** The window's end in microseconds: the latest moment a record made with no request moment may carry. */
export const windowEndMicros = windowEnd * 1000;

/** Strings that break naive clients: unicode of several scripts, emoji, combining marks, quotes, control characters. */
const edgeStrings = [
  '',
  'Zoë Ångström-Łukasiewicz',
  '评估测试 · テスト · 평가',
  'مرحبا بالعالم',
  'עברית RTL',
  '🚀🧪 eval 👩🏽‍💻',
  'e\u0301 combining\u200b zero-width',
  '"quoted" \\ back\\slash <tag> & ampersand',
  'line one\nline two\ttabbed',
  ' leading and trailing spaces ',
];
const longString = 'long-'.repeat(1000);
export const boundaryIntegers = [0, 1, -1, 2147483647, -2147483648, Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER];

const byteHex = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, '0'));

const objectIdShape = /^[0-9a-f]{24}$/i;
const uuidShape = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The release an id comes from, by its shape: a 24-hex ObjectId (older) or a UUID (newer); undefined for others. */
export function idStyleOf(id: string): IdStyle | undefined {
  if (objectIdShape.test(id)) return 'object-id';
  return uuidShape.test(id) ? 'uuid-v7' : undefined;
}

/** The earliest time an id's own time is read as its creation: older ones are test ids (`000…001`), not real ones. */
const earliestMinted = Date.UTC(2015, 0, 1) * 1000;

/**
 * When an id was minted, as the service mints ids at creation: an ObjectId's seconds or a UUIDv7's milliseconds, in
 * microseconds, with the precision they carry; undefined for other ids and for times before 2015.
 */
export function mintedAt(id: string): { at: number; precision: number } | undefined {
  const style = idStyleOf(id);
  const minted =
    style === 'object-id'
      ? { at: parseInt(id.slice(0, 8), 16) * 1_000_000, precision: 1_000_000 }
      : style === 'uuid-v7' && id[14] === '7'
        ? { at: parseInt(id.slice(0, 8) + id.slice(9, 13), 16) * 1000, precision: 1000 }
        : undefined;
  return minted && minted.at >= earliestMinted ? minted : undefined;
}

/**
 * Everything one generator set draws from. A set owns its random source and its faker instance; each top-level
 * call reseeds them, so an instance is a function of (seed, options) and sets never share state.
 */
export class GenerationContext {
  readonly random: SeededRandom;
  /** faker's English words and names, drawn as faker draws them (faker-words.ts: faker's class is not bundled). */
  readonly faker: FakerWords;
  profile: Profile = 'mixed';
  private idStyle: IdStyle = 'object-id';
  private utcSuffix = 'Z';

  constructor() {
    this.random = new SeededRandom();
    this.faker = fakerWords(this.random);
  }

  /** Starts one top-level instance: after this, every draw depends on the seed only. */
  begin(seed: number, profile: Profile): void {
    this.random.seed(seed);
    this.profile = profile;
    // A record comes from one release of the service: one id style and one timestamp style throughout.
    this.idStyle = this.chance(0.5) ? 'object-id' : 'uuid-v7';
    // The real web client appends `Z` to every date-time without one (a fix for the service's naive times), which
    // turns `+00:00` into Invalid Date: only `Z` survives it, so only the edge profile shows the `+00:00` form. The
    // draw is made under every profile, so the rest of a record is the same whichever form it shows.
    const offsetForm = this.chance(0.7);
    this.utcSuffix = profile === 'edge' && offsetForm ? '+00:00' : 'Z';
  }

  /**
   * Makes the ids generated from now on take the style of the first of `ids` that has one (ObjectId or UUID): a record
   * answering a request comes from the release that made the request's ids, and real client code hard-codes that
   * style (a `[a-zA-Z0-9]+` route in one era, `uuid.UUID(id)` in the other). Ids of neither shape leave `otherwise`
   * (the era asked for), or the seed's style.
   */
  followIds(ids: Iterable<string | undefined>, otherwise?: IdStyle): void {
    for (const id of ids) {
      const style = id === undefined ? undefined : idStyleOf(id);
      if (style) {
        this.idStyle = style;
        return;
      }
    }
    if (otherwise) this.idStyle = otherwise;
  }

  /**
   * Runs `draw` on a stream of its own, keyed by `label` and by where the main stream stands, then puts the main
   * stream back as it was. What depends on the lifecycle state is drawn aside: however many draws a state takes,
   * the rest of the record draws the same values, so one seed gives one record in every state.
   */
  aside<T>(label: string, draw: () => T): T {
    const position = this.random.position();
    this.random.seed(seedFrom(label, ...position));
    try {
      return draw();
    } finally {
      this.random.restore(position);
    }
  }

  /** The id style of the record being made: which era of the service it comes from. */
  get recordIdStyle(): IdStyle {
    return this.idStyle;
  }

  get edge(): boolean {
    return this.profile === 'edge';
  }

  float(min: number, max: number): number {
    return min + this.random.next() * (max - min);
  }

  /** An integer in [min, max], both included. */
  int(min: number, max: number): number {
    return min + Math.floor(this.random.next() * (max - min + 1));
  }

  chance(probability: number): boolean {
    return this.random.next() < probability;
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.random.next() * items.length)] as T;
  }

  round(value: number, digits: number): number {
    const scale = 10 ** digits;
    return Math.round(value * scale) / scale;
  }

  hex(length: number): string {
    // Four bytes per draw through a lookup table: ids are the bulk of a record's draws.
    let out = '';
    while (out.length < length) {
      const word = (this.random.next() * 4294967296) >>> 0;
      out +=
        byteHex[word >>> 24]! + byteHex[(word >>> 16) & 255]! + byteHex[(word >>> 8) & 255]! + byteHex[word & 255]!;
    }
    return out.length === length ? out : out.slice(0, length);
  }

  /** Whether an optional field is sent, by profile. */
  includeOptional(): boolean {
    if (this.profile === 'minimal') return false;
    if (this.profile === 'full') return true;
    return this.chance(0.5);
  }

  /** A realistic string, or under the edge profile often a hostile one. */
  text(realistic: () => string): string {
    if (this.edge && this.chance(0.5)) return this.chance(0.2) ? longString : this.pick(edgeStrings);
    return realistic();
  }

  /** An id as the service makes them at a moment: a 24-hex ObjectId (older releases) or a UUIDv7 (newer ones). */
  id(atMicros: number): string {
    const ms = Math.floor(atMicros / 1000);
    if (this.idStyle === 'object-id') {
      return (
        Math.floor(ms / 1000)
          .toString(16)
          .padStart(8, '0') + this.hex(16)
      );
    }
    const time = ms.toString(16).padStart(12, '0');
    const variant = '89ab'[this.int(0, 3)] as string;
    return `${time.slice(0, 8)}-${time.slice(8)}-7${this.hex(3)}-${variant}${this.hex(3)}-${this.hex(12)}`;
  }

  /** A moment in the fixed recent window, in whole microseconds since the epoch (the service's precision). */
  instant(): number {
    return (windowStart + Math.floor(this.random.next() * (windowEnd - windowStart))) * 1000 + this.int(0, 999);
  }

  /** RFC 3339 with microseconds, as the service writes them; equal instants give equal strings. */
  timestamp(micros: number): string {
    const { day, time, fraction } = utcParts(micros);
    return `${day}T${time}.${fraction}${this.utcSuffix}`;
  }
}

/** An instant's UTC date (`2025-06-01`), time (`12:00:00`) and six-digit fraction, the parts of every date form. */
export function utcParts(micros: number): { day: string; time: string; fraction: string } {
  const date = new Date(Math.floor(micros / 1000));
  return {
    // RFC 3339 years have four digits: a fixture's year 0500 is re-rendered as 0500, never as 500.
    day: `${String(date.getUTCFullYear()).padStart(4, '0')}-${two(date.getUTCMonth() + 1)}-${two(date.getUTCDate())}`,
    time: `${two(date.getUTCHours())}:${two(date.getUTCMinutes())}:${two(date.getUTCSeconds())}`,
    fraction: String(micros % 1_000_000).padStart(6, '0'),
  };
}

function two(value: number): string {
  return value < 10 ? `0${value}` : String(value);
}
