import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { profiles } from '../../generators/profile.js';
import { eraNames, evaluationStates } from '../../generators/vocabulary.js';
import { ScenarioStore } from '../../mock/control/scenario-store.js';
import { faults } from '../../mock/core/faults.js';
import { scenarioCodes } from '../../mock/core/scenario-answers.js';
import { defaultScenario, parseScenarioFile, ScenarioBook } from '../../mock/core/scenario-book.js';
import { scenarioEntry, scenarioKeys, scenarioValues } from '../../mock/core/scenarios.js';
import { readScenarioFile } from '../../mock/node/scenario-file.js';
import { removeTempDirs, tempDir } from '../helpers/temp-dirs.js';
import { limitFor, runs } from '../properties/runs.js';

afterAll(removeTempDirs);

/** A name with one slip: a letter dropped, doubled or swapped with the next, as people type. */
function slipped(name: string): fc.Arbitrary<string> {
  return fc.tuple(fc.constantFrom('drop', 'double', 'swap'), fc.nat()).map(([slip, at]) => {
    const i = at % name.length;
    if (slip === 'drop') return name.slice(0, i) + name.slice(i + 1);
    if (slip === 'double') return name.slice(0, i + 1) + name.slice(i);
    return name.slice(0, i) + name.slice(i + 1, i + 2) + name.slice(i, i + 1) + name.slice(i + 2);
  });
}

/** Values a person types into a scenario: the listed ones, each with a slip, any text, and JSON that is no text. */
const listed = [
  ...scenarioCodes.map(String),
  ...evaluationStates,
  ...evaluationStates.map((state) => state.slice('EVALUATION_'.length).toLowerCase()),
  ...faults,
  ...profiles,
  ...eraNames,
  'v0.18.2',
  '0.14.9',
  '0.1',
  'true',
  'false',
];
const value: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(...listed),
  fc.constantFrom(...listed).chain(slipped),
  fc.string({ maxLength: 60 }),
  fc.string({ minLength: 1000, maxLength: 3000 }),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.string(), { maxLength: 2 }),
  fc.dictionary(fc.string(), fc.string(), { maxKeys: 2 }),
);
const key: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(...scenarioKeys),
  fc.constantFrom(...scenarioKeys).chain(slipped),
  fc.string({ maxLength: 30 }),
);

/** What the one scenario parser makes of a key and value: the values it keeps, or the words it refuses them in. */
function parsed(name: string, given: unknown): { kept: Record<string, unknown> } | { refused: string } {
  try {
    return { kept: scenarioValues(scenarioEntry(name, given)) };
  } catch (error) {
    return { refused: (error as Error).message };
  }
}

/** The error a call throws, or the value it returns. */
function outcome<T>(call: () => T): { value: T } | { error: Error } {
  try {
    return { value: call() };
  } catch (error) {
    return { error: error as Error };
  }
}

const storeRuns = 500;
const fileRuns = 60;

describe('property: a scenario key and value typed anywhere are read as Prefer reads them', () => {
  it(
    `the control room's PUT and PATCH, in each section: kept as written, or refused in the parser's words, the ` +
      `scenario in force unchanged (${storeRuns} runs)`,
    () => {
      const store = new ScenarioStore({ current: new ScenarioBook(defaultScenario) });
      const before = store.current();
      fc.assert(
        fc.property(key, value, fc.constantFrom('scenario', 'operations', 'humanEvaluations'), (name, given, where) => {
          const entry = { [name]: given };
          const [body, at] =
            where === 'scenario'
              ? [{ scenario: entry }, 'scenario']
              : where === 'operations'
                ? [{ operations: { createEvaluations: entry } }, 'operations.createEvaluations']
                : [{ humanEvaluations: { 'some-id': entry } }, 'humanEvaluations.some-id'];
          const expected = parsed(name, given);
          // In a PATCH, null removes a key (RFC 7396): no value to read.
          const changes =
            given === null ? [() => store.replace(body)] : [() => store.replace(body), () => store.merge(body)];
          for (const change of changes) {
            const got = outcome(change);
            if ('refused' in expected) {
              expect('error' in got && got.error.message).toBe(`${at}: ${expected.refused}`);
              expect(expected.refused.length).toBeLessThan(1024);
              expect(store.current()).toEqual(before);
            } else {
              expect('value' in got).toBe(true);
              store.restore();
            }
          }
          if ('kept' in expected) {
            const section = store.replace(body);
            const rule =
              where === 'scenario'
                ? section.scenario
                : where === 'operations'
                  ? section.operations.createEvaluations
                  : section.humanEvaluations['some-id'];
            expect(rule).toMatchObject(expected.kept);
            store.restore();
          }
        }),
        runs(storeRuns),
      );
    },
    limitFor(storeRuns, 5),
  );

  it(
    `a scenario file (--scenarios): read as written, or refused naming the file, the entry and the parser's words ` +
      `(${fileRuns} runs)`,
    () => {
      const file = join(tempDir('evalkit-typed-scenarios-'), 'scenarios.json');
      fc.assert(
        fc.property(key, value, (name, given) => {
          const data = { humanEvaluations: { abc: { [name]: given } } };
          writeFileSync(file, JSON.stringify(data));
          const expected = parsed(name, given);
          const got = outcome(() => parseScenarioFile(readScenarioFile(file)));
          if ('refused' in expected) {
            expect('error' in got && got.error.message).toBe(`${file}: humanEvaluations.abc: ${expected.refused}`);
          } else {
            expect('value' in got && scenarioValues(got.value.humanEvaluations.get('abc') ?? {})).toEqual(
              expected.kept,
            );
          }
        }),
        runs(fileRuns),
      );
    },
    limitFor(fileRuns, 20),
  );
});
