import { eraFrom } from '../generators/vocabulary.js';
import type { MockAnswerer, MockComparisonOptions } from '../contract/compare/comparison.js';
import type { MockSettings } from '../contract/compare/settings.js';
import { createMockCore, MockSetupError } from '../mock/index.js';
import { scenarioEntry } from '../mock/core/scenarios.js';
import { readScenarioFile } from '../mock/node/scenario-file.js';
import { stringOption, UsageError, type OptionValues } from './command.js';

/** The options that shape the compared mock or judge its differences, each meaningless without --compare-mock. */
const mockFlags = ['mock-era', 'mock-era-dates', 'mock-nullable', 'mock-scenarios', 'fail-on-drift'] as const;

const decoder = new TextDecoder();
const encoder = new TextEncoder();

/** The mock core under these settings (over the scenarios file's own), as an answerer of the run's requests. */
function answererFor(scenarios: unknown): (settings: MockSettings) => MockAnswerer {
  return (settings) => {
    const core = createMockCore({
      ...(scenarios === undefined ? {} : { scenarios }),
      scenario: {
        ...(settings.era ? { era: settings.era } : {}),
        ...(settings.eraDates ? { eraDates: true } : {}),
        ...(settings.nullable ? { nullable: true } : {}),
      },
      // An unforeseen error of the mock is its answer's 500, compared like any other; no line on the run's output.
      log: () => undefined,
    });
    // The core itself, not the Fetch adapter (mock/fetch/): a Request and a Response per question cost the settings
    // search 1.5x its time (test/contract/compare-mock.test.ts: 7.1 s against 4.9 s), for nothing a frontend sees.
    return async (request) => {
      const body = request.body === undefined ? undefined : encoder.encode(request.body);
      const headers = { ...request.headers, ...(body ? { 'content-length': String(body.length) } : {}) };
      const answer = await core.handle({
        method: request.method,
        url: request.path,
        headers,
        ...(body ? { body } : {}),
      });
      const lowerCased = Object.fromEntries(
        Object.entries(answer.headers).map(([name, value]) => [name.toLowerCase(), value]),
      );
      // A scenario's fault (a reset, a cut body) reaches a frontend as no answer at all.
      return answer.fault
        ? { headers: {}, body: '', redirects: [] }
        : {
            status: answer.status,
            headers: lowerCased,
            body: answer.body ? decoder.decode(answer.body) : '',
            redirects: [],
          };
    };
  };
}

/** A value the mock's own parser refuses, as a usage error naming the flag. */
function checked<T>(flag: string, make: () => T): T {
  try {
    return make();
  } catch (error) {
    if (error instanceof MockSetupError) throw new UsageError(`--${flag}: ${error.message}`);
    throw error;
  }
}

/**
 * `--compare-mock` and its `--mock-*` flags as the run's comparison options: the mock's own flags and scenario file
 * under `mock-` names, checked by the mock's own parser. Undefined without --compare-mock.
 */
export function compareMockOptions(values: OptionValues, baseUrl: string): MockComparisonOptions | undefined {
  if (values['compare-mock'] !== true) {
    const stray = mockFlags.find((flag) => values[flag] !== undefined && values[flag] !== false);
    if (stray) throw new UsageError(`--${stray} needs --compare-mock`);
    return undefined;
  }
  const eraText = stringOption(values, 'mock-era');
  if (eraText !== undefined) checked('mock-era', () => scenarioEntry('era', eraText));
  const era = eraText === undefined ? undefined : eraFrom(eraText);
  const given: MockSettings = {
    ...(era ? { era } : {}),
    ...(values['mock-era-dates'] === true ? { eraDates: true } : {}),
    ...(values['mock-nullable'] === true ? { nullable: true } : {}),
  };
  const scenariosFile = stringOption(values, 'mock-scenarios');
  const scenarios =
    scenariosFile === undefined ? undefined : checked('mock-scenarios', () => readScenarioFile(scenariosFile));
  const answerer = answererFor(scenarios);
  // Made once now so settings the mock refuses (--mock-era-dates without an era) stop the run before it starts.
  checked(given.eraDates && !given.era ? 'mock-era-dates' : 'mock-scenarios', () => answerer(given));
  const basePath = basePathOf(baseUrl);
  return {
    given,
    source: { ...(scenariosFile ? { scenariosFile } : {}), ...(basePath ? { basePath } : {}) },
    // Settings searched that the file cannot start under (its eraDates without their era) are no suggestion.
    answererFor: (settings) => {
      try {
        return answerer(settings);
      } catch (error) {
        if (error instanceof MockSetupError) return undefined;
        throw error;
      }
    },
    failOnDrift: values['fail-on-drift'] === true,
  };
}

/** The base URL's path, which a suggested mock serves under (`--base-path /api`); none at the root. */
function basePathOf(baseUrl: string): string | undefined {
  try {
    const path = new URL(baseUrl).pathname.replace(/\/+$/, '');
    return /^(\/[A-Za-z0-9._~-]+)+$/.test(path) ? path : undefined;
  } catch {
    return undefined;
  }
}
