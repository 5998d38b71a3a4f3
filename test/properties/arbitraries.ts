import fc from 'fast-check';
import { renderableMoments } from '../../generators/moments.js';
import { profiles } from '../../generators/profile.js';
import { eraNames, evaluationStates, providerKeyNames } from '../../generators/vocabulary.js';
import { maxIdLength } from '../../mock/core/limits.js';
import { scenarioCodes } from '../../mock/core/scenario-answers.js';

/** The mock's documented limits on a create request (docs/mock.md): lists and maps of at most 100 entries. */
const maxListItems = 100;

/** Counts of list entries: mostly few, as real requests send, and now and then up to the limit. */
function entryCount(min: number, max: number): fc.Arbitrary<number> {
  return fc.oneof(
    { weight: 6, arbitrary: fc.integer({ min, max: Math.min(max, min + 9) }) },
    { weight: 1, arbitrary: fc.integer({ min, max }) },
    { weight: 1, arbitrary: fc.constant(max) },
  );
}

const hex = (length: number) =>
  fc.string({ unit: fc.constantFrom(...'0123456789abcdef'), minLength: length, maxLength: length });

/** Ids of every style the service and its clients use, and any string up to the mock's length limit. */
export const anyId: fc.Arbitrary<string> = fc.oneof(
  hex(24),
  fc
    .tuple(hex(8), hex(4), hex(3), fc.constantFrom('8', '9', 'a', 'b'), hex(3), hex(12))
    .map(([a, b, c, v, d, e]) => `${a}-${b}-7${c}-${v}${d}-${e}`),
  fc.uuid(),
  fc.string({ minLength: 1, maxLength: 40 }),
  fc.string({ unit: 'grapheme', minLength: 1, maxLength: 20 }),
  fc.string({ minLength: maxIdLength - 2, maxLength: maxIdLength }),
);

/** A list of ids of 1 to 100 entries, repeats included (drawn from a small pool now and then). */
function idList(): fc.Arbitrary<string[]> {
  return fc.oneof(
    entryCount(1, maxListItems).chain((count) => fc.array(anyId, { minLength: count, maxLength: count })),
    fc
      .tuple(fc.array(anyId, { minLength: 1, maxLength: 3 }), entryCount(1, maxListItems))
      .chain(([pool, count]) => fc.array(fc.constantFrom(...pool), { minLength: count, maxLength: count })),
  );
}

/** An optional field: absent, present, or null (as the service's SDKs send a None). */
function optional<T>(value: fc.Arbitrary<T>): fc.Arbitrary<T | null | undefined> {
  return fc.oneof(fc.constant(undefined), fc.constant(null), value);
}

const integer = fc.oneof(fc.integer(), fc.maxSafeInteger(), fc.constantFrom(0, -1, 2 ** 53, -(2 ** 60)));

const providerName = fc.oneof(fc.constantFrom(...providerKeyNames), fc.string({ minLength: 1, maxLength: 30 }));

/** Any create request the spec allows, within the mock's documented limits. */
export const createRequest: fc.Arbitrary<Record<string, unknown>> = fc
  .record({
    app_id: anyId,
    variant_ids: idList(),
    evaluators_configs: idList(),
    testset_id: anyId,
    rate_limit: fc.record({
      batch_size: integer,
      max_retries: integer,
      retry_delay: integer,
      delay_between_batches: integer,
    }),
    lm_providers_keys: optional(
      entryCount(0, maxListItems).chain((count) =>
        fc.dictionary(providerName, fc.string({ maxLength: 60 }), { minKeys: 0, maxKeys: count }),
      ),
    ),
    correct_answer_column: optional(fc.string({ maxLength: 40 })),
  })
  .map((request) => Object.fromEntries(Object.entries(request).filter(([, value]) => value !== undefined)));

/** Any moment the mock renders, as an RFC 3339 text with 0 to 6 fraction digits, `Z` or an offset. */
export const renderableNow: fc.Arbitrary<string> = fc
  .tuple(
    fc.integer({
      min: renderableMoments.earliest / 1000,
      max: Math.floor(renderableMoments.latest / 1000),
    }),
    fc.integer({ min: 0, max: 999 }),
    fc.integer({ min: 0, max: 6 }),
    fc.constantFrom('Z', '+00:00', '+05:30', '-08:00'),
  )
  .map(([ms, micros, digits, offset]) => {
    const shift =
      offset === 'Z'
        ? 0
        : (offset[0] === '-' ? -1 : 1) * (Number(offset.slice(1, 3)) * 60 + Number(offset.slice(4))) * 60_000;
    const local = new Date(ms + shift).toISOString().slice(0, 19);
    const fraction = `${String(ms % 1000).padStart(3, '0')}${String(micros).padStart(3, '0')}`.slice(0, digits);
    return `${local}${digits > 0 ? `.${fraction}` : ''}${offset}`;
  });

/** A state as callers write it: in full or short, in any case. */
const stateName = fc
  .tuple(fc.constantFrom(...evaluationStates), fc.boolean(), fc.constantFrom('upper', 'lower', 'as is'))
  .map(([state, short, letterCase]) => {
    const name = short ? state.slice('EVALUATION_'.length) : state;
    return letterCase === 'upper' ? name.toUpperCase() : letterCase === 'lower' ? name.toLowerCase() : name;
  });

/** A seed as the Prefer header can carry it: 1 to 100 characters, none a double quote. */
const seedText = fc.string({ minLength: 1, maxLength: 100 }).filter((seed) => !seed.includes('"'));

/**
 * Any combination of the documented scenario keys with values they accept (latency 0 only: a property waits for no
 * timer). `era` comes whenever `eraDates` does, as the key requires.
 */
export const scenarioValues: fc.Arbitrary<Record<string, string | number | boolean>> = fc
  .record(
    {
      code: fc.constantFrom(...scenarioCodes),
      state: stateName,
      latency: fc.constant('0'),
      nullable: fc.boolean(),
      strictNulls: fc.boolean(),
      profile: fc.constantFrom(...profiles),
      seed: seedText,
      now: renderableNow,
      era: fc.oneof(fc.constantFrom(...eraNames), fc.constantFrom('v0.17.5', '0.18.0', 'v0.26.1', '1.2')),
      eraDates: fc.boolean(),
      progress: fc.integer({ min: 1, max: 86_400_000 }).map(String),
    },
    { requiredKeys: [] },
  )
  .map((scenario) => (scenario.eraDates && scenario.era === undefined ? { ...scenario, era: '0.19' } : scenario));
