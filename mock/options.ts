import type { Profile } from '../fixtures/generators/index.js';
import type { CorsOrigins } from './cors.js';
import { loadFixtures, type Fixture } from './fixtures-store.js';
import { readScenarioFile, ScenarioBook } from './scenario-book.js';
import { scenarioFrom, type ResolvedScenario } from './scenarios.js';
import { MockSetupError } from './setup-error.js';

export interface MockOptions {
  /** Mount both operations under this path, e.g. `/api` (the service's public base path). Default: the root. */
  basePath?: string;
  /** Seed of every generated body: the same seed and id give the same body. Default `1`. */
  seed?: string | number;
  /** How much of each resource is shown (generators' profiles). Default `mixed`. */
  profile?: Profile;
  /** A server-wide scenario, with the keys and values of the Prefer header, e.g. `{ state: 'failed', latency: '50-200' }`. */
  scenario?: Record<string, string | number | boolean>;
  /** A JSON scenario config file (docs/mock.md); `scenario` and `seed`/`profile` override its `scenario` section. */
  scenarioFile?: string;
  /** Serve DIR/human-evaluations/<id>.json; every file is validated at start-up. */
  fixturesDir?: string;
  /** Ids with no fixture get 404 instead of a generated record. */
  strictIds?: boolean;
  /** Allowed browser origins, or false for no CORS headers. Default `*`. */
  cors?: false | CorsOrigins;
  /** Where request log lines go; none when absent. */
  log?: (line: string) => void;
}

/** The options with defaults applied, files read and checked: everything a request needs, settled at start-up. */
export interface MockConfig {
  basePath: string;
  scenarios: ScenarioBook;
  fixtures: ReadonlyMap<string, Fixture>;
  strictIds: boolean;
  cors: false | CorsOrigins;
  log: ((line: string) => void) | undefined;
}

/** `/api`, `/api/v1`: path segments only, no trailing slash; `''` and `/` mean the root. */
export function normalizeBasePath(path: string): string {
  const trimmed = path.replace(/\/+$/, '');
  if (trimmed !== '' && !/^(\/[A-Za-z0-9._~-]+)+$/.test(trimmed)) {
    throw new MockSetupError(`base path '${path}' must look like /api or /api/v1 (letters, digits, . _ ~ -)`);
  }
  return trimmed;
}

export function resolveMockOptions(options: MockOptions): MockConfig {
  if (options.strictIds && options.fixturesDir === undefined) throw new MockSetupError('strict ids need a fixtures folder (--fixtures DIR)');
  const file = options.scenarioFile === undefined ? undefined : readScenarioFile(options.scenarioFile);
  const base: ResolvedScenario = {
    profile: 'mixed',
    seed: '1',
    ...file?.scenario,
    // seed and profile go through the scenario parser too: one check of every value, whatever its source.
    ...scenarioFrom({
      ...options.scenario,
      ...(options.seed !== undefined && { seed: options.seed }),
      ...(options.profile !== undefined && { profile: options.profile }),
    }),
  };
  return {
    basePath: normalizeBasePath(options.basePath ?? ''),
    scenarios: new ScenarioBook(base, file),
    fixtures: options.fixturesDir === undefined ? new Map() : loadFixtures(options.fixturesDir),
    strictIds: options.strictIds ?? false,
    cors: options.cors ?? '*',
    log: options.log,
  };
}
