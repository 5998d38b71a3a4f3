import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { renderableMoments } from '../../generators/moments.js';
import { profiles } from '../../generators/profile.js';
import { evaluationStateFrom, evaluationStates } from '../../generators/vocabulary.js';
import { faults } from '../../mock/core/faults.js';
import { scenarioCodes } from '../../mock/core/scenario-answers.js';
import { scenarioEntry, scenarioKeys, ScenarioError, type ScenarioKey } from '../../mock/core/scenarios.js';
import { createMockCore } from '../../mock/index.js';
import { startCli } from '../helpers/cli.js';
import { renderableNow } from '../properties/arbitraries.js';
import { limitFor, runs } from '../properties/runs.js';

const daysIn = (year: number, month: number) => new Date(Date.UTC(year, month, 0)).getUTCDate();

/**
 * The instant an RFC 3339 text names, read by hand field by field (not by the mock's reader): undefined when a field
 * is out of its range, the day does not exist in its month, or the moment is outside what the mock renders.
 */
function instantAsWritten(text: string): number | undefined {
  const match = /^(\d{4})-(\d\d)-(\d\d)[Tt](\d\d):(\d\d):(\d\d)(\.\d{1,9})?([Zz]|([+-])(\d\d):(\d\d))$/.exec(text);
  if (!match) return undefined;
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map(Number) as number[] as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const [offsetHours, offsetMinutes] = [Number(match[10] ?? 0), Number(match[11] ?? 0)];
  if (month < 1 || month > 12 || day < 1 || day > daysIn(year, month)) return undefined;
  if (hour > 23 || minute > 59 || second > 59 || offsetHours > 23 || offsetMinutes > 59) return undefined;
  const sign = match[9] === '-' ? -1 : 1;
  const ms = Date.UTC(year, month - 1, day, hour, minute, second) - sign * (offsetHours * 60 + offsetMinutes) * 60_000;
  const micros = ms * 1000 + Number((match[7] ?? '.').slice(1).padEnd(6, '0').slice(0, 6));
  return micros >= renderableMoments.earliest && micros <= renderableMoments.latest ? micros : undefined;
}

const digits = (min: number, max: number, length: number) =>
  fc.integer({ min, max }).map((value) => String(value).padStart(length, '0'));

/** RFC 3339-shaped texts with every field anywhere in its digits' range: real, impossible and unrenderable dates. */
const dateShaped = fc
  .tuple(
    digits(0, 9999, 4),
    digits(0, 19, 2),
    digits(0, 39, 2),
    digits(0, 29, 2),
    digits(0, 69, 2),
    digits(0, 69, 2),
    fc.constantFrom('', '.5', '.123456', '.123456789'),
    fc.constantFrom('Z', 'z', '+00:00', '-05:30', '+24:00', '+23:60', '+14:00'),
  )
  .map(([y, mo, d, h, mi, s, fraction, offset]) => `${y}-${mo}-${d}T${h}:${mi}:${s}${fraction}${offset}`);

/** Values each key accepts, and values beside them: any text, numbers, near-misses. */
const candidates: Record<ScenarioKey, fc.Arbitrary<string>> = {
  code: fc.oneof(
    fc.constantFrom(...scenarioCodes.map(String)),
    digits(0, 999, 3),
    fc.constantFrom('4040', '40', ' 404', '404.0'),
  ),
  state: fc.oneof(
    fc.constantFrom('failed', 'FINISHED', 'evaluation_started', 'done', 'EVALUATION_', ''),
    // Each state in full or short, one letter dropped: the typos a suggestion is for.
    fc.tuple(fc.constantFrom(...evaluationStates), fc.boolean(), fc.nat()).map(([state, short, at]) => {
      const name = short ? state.slice('EVALUATION_'.length).toLowerCase() : state;
      return name.slice(0, at % name.length) + name.slice((at % name.length) + 1);
    }),
  ),
  latency: fc.oneof(
    fc.integer({ min: 0, max: 70_000 }).map(String),
    fc.tuple(fc.integer({ min: 0, max: 70_000 }), fc.integer({ min: 0, max: 70_000 })).map(([a, b]) => `${a}-${b}`),
    fc.constantFrom('-1', '1e3', '5.5', '100000', ' 5 ', '5-'),
  ),
  fault: fc.constantFrom(...faults, 'Reset', 'drop', ''),
  nullable: fc.constantFrom('true', 'false', 'TRUE', '1', 'yes', ''),
  strictNulls: fc.constantFrom('true', 'false', 'True', '0'),
  profile: fc.constantFrom(...profiles, 'Full', 'maximal', ''),
  seed: fc.string({ minLength: 0, maxLength: 120 }),
  now: fc.oneof(renderableNow, dateShaped, fc.constantFrom('2026-01-01 10:00:00Z', '2026-01-01', 'now', '')),
  era: fc.oneof(
    fc.constantFrom('0.17', 'v0.18.2', '0.19', '1.0', 'v2', '0.x', 'latest', '0.1', '0.14.9', 'v0.15.0'),
    fc
      .tuple(fc.boolean(), fc.nat(3), fc.nat(40), fc.option(fc.nat(30), { nil: undefined }))
      .map(([v, major, minor, patch]) => `${v ? 'v' : ''}${major}.${minor}${patch === undefined ? '' : `.${patch}`}`),
  ),
  eraDates: fc.constantFrom('true', 'false', 'on'),
  progress: fc.oneof(
    fc.integer({ min: 0, max: 100_000_000 }).map(String),
    fc.constantFrom('1', '86400000', '86400001', '0', '-5', '1.5', '1e3', ' 10', '007', ''),
  ),
};

/** What the key's documentation says a text reads as; undefined when it must be refused. */
function documentedReading(key: ScenarioKey, text: string): unknown {
  switch (key) {
    case 'code':
      return /^\d{3}$/.test(text) && scenarioCodes.includes(Number(text)) ? Number(text) : undefined;
    case 'state':
      return evaluationStateFrom(text);
    case 'latency': {
      const [min, max = min] = text.trim().split('-').map(Number) as [number, number?];
      const shaped = /^\d{1,5}(-\d{1,5})?$/.test(text.trim());
      return shaped && min <= max && max <= 60_000 ? { min, max } : undefined;
    }
    case 'fault':
      return (faults as readonly string[]).includes(text) ? text : undefined;
    case 'nullable':
    case 'strictNulls':
    case 'eraDates':
      return text === 'true' ? true : text === 'false' ? false : undefined;
    case 'profile':
      return (profiles as readonly string[]).includes(text) ? text : undefined;
    case 'seed':
      return text.length >= 1 && text.length <= 100 ? text : undefined;
    case 'now':
      return instantAsWritten(text) === undefined ? undefined : text;
    case 'era': {
      // The documented rule, spelt apart from eraFrom: v0.15.0 to 0.17.x, 0.18.x, then 0.19 for every later release.
      const release = /^v?(\d{1,3})\.(\d{1,3})(?:\.\d{1,3})?$/.exec(text);
      if (!release) return undefined;
      const [major, minor] = [Number(release[1]), Number(release[2])];
      if (major > 0 || minor >= 19) return '0.19';
      return minor === 18 ? '0.18' : minor >= 15 ? '0.17' : undefined;
    }
    case 'progress':
      return /^\d+$/.test(text) && Number(text) >= 1 && Number(text) <= 86_400_000 ? Number(text) : undefined;
  }
}

/** The message of what `run` throws. */
function caught(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('nothing thrown');
}

const keyAndText = fc.constantFrom(...scenarioKeys).chain((key) => fc.tuple(fc.constant(key), candidates[key]));

const parserRuns = 2000;
const preferRuns = 300;

describe('property: each scenario key applies a value as documented or refuses it naming the key', () => {
  it(
    `the parser every source shares (Prefer, flags, files, the control room) (${parserRuns} runs)`,
    () => {
      fc.assert(
        fc.property(keyAndText, ([key, text]) => {
          const reading = documentedReading(key, text);
          if (reading === undefined) {
            expect(() => scenarioEntry(key, text)).toThrow(ScenarioError);
            // Refused naming the key, the suggestion or the reason (if any) before what it accepts; never moved to
            // another value. A suggestion is itself a value the key takes.
            const refusal = new RegExp(
              `^scenario key '${key}' (accepts |does not accept '.*'(; did you mean (.+)\\?|, a release before ` +
                'v0\\.15\\.0, which no era describes\\.) It accepts )',
              's',
            );
            expect(() => scenarioEntry(key, text)).toThrow(refusal);
            const meant = refusal.exec(caught(() => scenarioEntry(key, text)))?.[3];
            if (meant !== undefined) expect(documentedReading(key, meant)).toBeDefined();
          } else {
            expect(scenarioEntry(key, text)).toEqual({ [key]: reading });
          }
        }),
        runs(parserRuns),
      );
    },
    limitFor(parserRuns, 5),
  );

  it(
    `Prefer: a 400 naming the key, or the answer the value asks for (${preferRuns} runs)`,
    async () => {
      const core = createMockCore();
      await fc.assert(
        fc.asyncProperty(
          keyAndText.filter(([key, text]) => key !== 'latency' && key !== 'fault' && !text.includes('"')),
          async ([key, text]) => {
            const answer = await core.handle({
              method: 'GET',
              url: '/human-evaluations/knob',
              headers: { prefer: `${key}="${text}"${key === 'eraDates' ? ', era=0.19' : ''}` },
            });
            const body = new TextDecoder().decode(answer.body);
            const reading = documentedReading(key, text);
            if (reading === undefined) {
              expect(answer.status, body).toBe(400);
              expect(body).toContain(`'${key}'`);
            } else {
              expect(answer.status, body).toBe(key === 'code' ? reading : 200);
            }
          },
        ),
        runs(preferRuns),
      );
    },
    limitFor(preferRuns, 20),
  );
});

/** The mock's value flags, each with values it accepts and values beside them. */
const flagValues: Record<string, fc.Arbitrary<string>> = {
  state: candidates.state,
  code: candidates.code,
  latency: candidates.latency,
  fault: candidates.fault,
  now: candidates.now,
  era: candidates.era,
  progress: candidates.progress,
  seed: candidates.seed.filter((seed) => !seed.startsWith('-')),
  profile: candidates.profile,
  'journal-size': fc.oneof(fc.integer({ min: -5, max: 20_000 }).map(String), fc.constantFrom('1e3', 'ten', '')),
  'base-path': fc.constantFrom('/api', '/api/v1', '', '/', 'api', '/a b', '/../x', '//'),
};
const flagRuns = 40;

describe('property: each value flag of evalkit mock starts the mock or exits 2 naming the flag', () => {
  it(
    `one line naming the flag, or a mock listening (${flagRuns} runs)`,
    async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom(...Object.keys(flagValues)).chain((flag) => fc.tuple(fc.constant(flag), flagValues[flag]!)),
          async ([flag, value]) => {
            const mock = startCli(['mock', '--port', '0', '--quiet', `--${flag}=${value}`]);
            const outcome = await Promise.race([
              mock.exited.then(({ code }) => ({ code })),
              mock.waitFor(/listening on/, 30_000).then(() => ({ code: undefined })),
            ]);
            mock.kill();
            await mock.exited;
            if (outcome.code !== undefined) {
              expect(outcome.code).toBe(2);
              const lines = mock.stderr().trim().split('\n');
              expect(lines, mock.stderr()).toHaveLength(1);
              expect(lines[0]).toContain(`--${flag}`);
            }
          },
        ),
        runs(flagRuns),
      );
    },
    limitFor(flagRuns, 500),
  );
});
