import type { Profile } from '../../generators/index.js';
import { clockFrom, type Clock } from './clock.js';
import { corsOrigins, type CorsOrigins } from './cors.js';
import { fixtureSet, type Fixture } from './fixture-set.js';
import {
  defaultScenario,
  parseScenarioFile,
  ScenarioBook,
  type ScenarioFile,
  type ScenarioHolder,
} from './scenario-book.js';
import { scenarioFrom, type ResolvedScenario } from './scenarios.js';
import { MockSetupError } from './setup-error.js';
import { Sessions } from './sessions.js';

/** What the mock core is made with: plain data only, so the same options hold in Node, a browser and a test. */
export interface MockCoreOptions {
  /** Serve both operations under this path, e.g. `/api` (the service's public base path). Default: the root. */
  basePath?: string;
  /** Seed of every generated body: the same seed and id give the same body. Default `1`. */
  seed?: string | number;
  /** How much of each resource is shown (generators' profiles). Default `mixed`. */
  profile?: Profile;
  /**
   * The present, for the moments answers carry (a created Evaluation's `created_at`): an RFC 3339 instant pins it (the
   * `now` scenario key), so snapshots stay byte-stable; a function is asked at each request. Default: the clock.
   */
  now?: string | (() => Date);
  /**
   * The real service's era, by release (`0.17`, `0.18`, `0.19`, or the release run, e.g. `v0.18.2`): the state a create
   * answers when no `state` is set (EVALUATION_STARTED up to 0.17) and the id style when a request's ids imply none
   * (ObjectId up to 0.18, UUIDv7 from 0.19). The `era` scenario key. Default: neither (today's answers).
   */
  era?: string;
  /**
   * Milliseconds each phase of a generated human evaluation lasts from the moment it is first served:
   * EVALUATION_INITIALIZED, EVALUATION_STARTED, then its final state (`state`, else EVALUATION_FINISHED). The
   * `progress` scenario key. Default: off (each record in one state).
   */
  progress?: number;
  /**
   * A server-wide scenario, with the keys and values of the Prefer header, e.g.
   * `{ state: 'failed', latency: '50-200' }`.
   */
  scenario?: Record<string, string | number | boolean>;
  /**
   * A scenario config, as in a `--scenarios` file (docs/mock.md); `scenario` and `seed`/`profile` override its
   * `scenario` section.
   */
  scenarios?: unknown;
  /** HumanEvaluation records to serve by their id; each is validated when the core is made. */
  fixtures?: Iterable<unknown>;
  /** Ids with no fixture get 404 instead of a generated record. */
  strictIds?: boolean;
  /** Allowed browser origins, or false for no CORS headers. Default `*`. */
  cors?: false | CorsOrigins;
  /** Where an unforeseen error is reported (by its message alone); console.error when absent. */
  log?: (line: string) => void;
}

/** The options with defaults applied and checked: everything a request needs, settled once. */
export interface MockConfig {
  basePath: string;
  /** The server scenarios in force; the control room swaps the book. */
  scenarios: ScenarioHolder;
  fixtures: ReadonlyMap<string, Fixture>;
  strictIds: boolean;
  cors: false | CorsOrigins;
  /** Where unforeseen errors go: the `log` option, console.error when absent. */
  log: (line: string) => void;
  /** What requests read the present from, unless their scenario pins `now`. */
  clock: Clock;
  /** The sessions requests name, each with its own scenario over the server's and its own progress. */
  sessions: Sessions;
}

/** `/api`, `/api/v1`: path segments only, no trailing slash; `''` and `/` mean the root. */
export function normalizeBasePath(path: string): string {
  const trimmed = path.replace(/\/+$/, '');
  if (trimmed !== '' && !/^(\/[A-Za-z0-9._~-]+)+$/.test(trimmed)) {
    throw new MockSetupError(`base path '${path}' must look like /api or /api/v1 (letters, digits, . _ ~ -)`);
  }
  return trimmed;
}

/**
 * `folderFixtures`: fixtures an adapter read from a folder, in place of `options.fixtures`.
 * Throws a MockSetupError (its message names the option and the problem) for anything the mock cannot serve.
 */
export function resolveMockOptions(
  options: MockCoreOptions,
  folderFixtures?: ReadonlyMap<string, Fixture>,
): MockConfig {
  if (options.strictIds && options.fixtures === undefined && folderFixtures === undefined) {
    throw new MockSetupError('strict ids need a fixtures folder (--fixtures DIR) or fixtures');
  }
  const fixtures = folderFixtures ?? fixtureSet(options.fixtures ?? []);
  const file: ScenarioFile | undefined =
    options.scenarios === undefined ? undefined : parseScenarioFile(options.scenarios);
  const base: ResolvedScenario = {
    ...defaultScenario,
    ...file?.scenario,
    // seed and profile go through the scenario parser too: one check of every value, whatever its source.
    ...scenarioFrom({
      ...options.scenario,
      ...(options.seed !== undefined && { seed: options.seed }),
      ...(options.profile !== undefined && { profile: options.profile }),
      ...(typeof options.now === 'string' && { now: options.now }),
      ...(options.era !== undefined && { era: options.era }),
      ...(options.progress !== undefined && { progress: options.progress }),
    }),
  };
  if (base.eraDates && base.era === undefined)
    throw new MockSetupError("eraDates (--era-dates) needs an era to take the dates of: pass --era (or 'era')");
  const scenarios: ScenarioHolder = { current: new ScenarioBook(base, file) };
  return {
    basePath: normalizeBasePath(options.basePath ?? ''),
    scenarios,
    sessions: new Sessions(scenarios),
    fixtures,
    strictIds: options.strictIds ?? false,
    cors: corsOrigins(options.cors),
    log: options.log ?? ((line) => console.error(line)),
    clock: clockFrom(typeof options.now === 'function' ? options.now : undefined),
  };
}
