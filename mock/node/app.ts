import type { IncomingMessage, ServerResponse } from 'node:http';
import express, { type Express } from 'express';
import type { Pseudonymizer } from '../../http/pseudonymizer.js';
import type { AllowedHosts } from '../control/allowed-hosts.js';
import { hostCheck } from '../control/allowed-hosts.js';
import { controlRoom, type ControlRoomHandle } from '../control/control-room.js';
import { HttpProblem } from '../core/errors.js';
import { mockCore } from '../core/handle.js';
import { resolveMockOptions, type MockCoreOptions } from '../core/options.js';
import { problemAnswer, type MockAnswer, type MockRequest } from '../core/request-answer.js';
import { deliver } from './deliver.js';
import { EventStream } from './event-stream.js';
import { FixtureWatcher } from './fixture-watcher.js';
import { loadFixtureFolder } from './fixtures-folder.js';
import { readBody } from './read-body.js';
import { badSessionPrefix, withoutSessionPrefix } from '../core/sessions.js';
import { passthroughOrigin, passthroughTo } from './passthrough.js';
import { logAnswer, logPassthrough, requestLog } from './request-log.js';
import { readScenarioFile } from './scenario-file.js';

export interface MockOptions extends MockCoreOptions {
  /** A JSON scenario config file (docs/mock.md), in place of `scenarios`. */
  scenarioFile?: string;
  /** Serve DIR/<recordFolder>/<id>.json (api/operations.ts), in place of `fixtures`; each is validated at start-up. */
  fixturesDir?: string;
  /** Where request log lines go; none when absent. Unforeseen errors and refused fixture reloads go here too. */
  log?: (line: string) => void;
  /**
   * Where unforeseen errors and refused fixture reloads go when there is no request log (`--quiet` silences requests,
   * not problems); the process's stderr when absent.
   */
  problems?: (line: string) => void;
  /** Requests the control room's journal keeps (`GET /__evalkit/requests`); 0 turns it off. Default 500. */
  journalSize?: number;
  /**
   * Host names the control room answers besides this machine's loopback ones (`localhost`, `*.localhost`,
   * 127.0.0.0/8, `[::1]`): a list (`.example.test` for a domain and its subdomains), or `true` for any, which gives
   * up the DNS rebinding defence. The API answers any Host. Default none.
   */
  allowedHosts?: AllowedHosts;
  /**
   * An http(s) origin every request the mock does not serve is forwarded to, as sent (`--passthrough`): any path but
   * the two operations' and the control room's. Only for Hosts the control room answers (loopback and
   * `allowedHosts`), so a page reaching the mock by DNS rebinding cannot read the origin through it. Default none: 404.
   */
  passthrough?: string;
  /** Keep the journal with pseudonyms for personal values (`--pseudonymize`, http/pseudonymizer.ts). */
  pseudonymizer?: Pseudonymizer;
}

/**
 * What only the tests set, apart from the public options: a test of a silent origin need not wait 30 s. Never part of
 * MockOptions, so no user meets it.
 */
export interface MockSeams {
  /**
   * How long a passed-through exchange may go without a byte from the origin: a 504 before its answer began, a cut
   * connection after. Default 30 s.
   */
  passthroughTimeoutMs?: number;
}

/** What each app runs besides answering (fixtures watcher, event streams, journal), so whoever runs it can stop it. */
const closers = new WeakMap<Express, () => void>();

/** Stops what an app of createMockApp runs besides answering: the fixtures watcher and open event streams. */
export function closeMockApp(app: Express): void {
  closers.get(app)?.();
}

/** Delivers an answer of the mock's, told to the request log first when there is one. */
type Settle = (res: ServerResponse, answer: MockAnswer) => void;

/** What forwards a request the mock does not serve, recording it in the journal and the request log. */
type Forward = (req: IncomingMessage, res: ServerResponse, request: MockRequest) => void;

/** The pass-through of `options.passthrough`, or undefined; throws a MockSetupError for an origin it cannot use. */
function passthroughOf(
  options: MockOptions,
  room: ControlRoomHandle,
  log: (line: string) => void,
  seams: MockSeams,
  settle: Settle,
): Forward | undefined {
  if (options.passthrough === undefined) return undefined;
  const target = passthroughOrigin(options.passthrough);
  const forward = passthroughTo(target, seams.passthroughTimeoutMs);
  const admitted = hostCheck(options.allowedHosts ?? []);
  const refused = new HttpProblem(
    403,
    `The passthrough forwards only requests whose Host names this machine (localhost, 127.0.0.1, [::1]) or a host ` +
      `allowed with --allowed-hosts; a page reaching the mock by another name may be using DNS rebinding`,
  );
  return (req, res, request) => {
    if (admitted(request) !== undefined) return settle(res, problemAnswer(refused, {}));
    if (options.log) logPassthrough(res, target.origin);
    const arrived = Date.now();
    const started = performance.now();
    forward(req, res, (passed) => {
      try {
        room.passedThrough({ request, arrived, durationMs: performance.now() - started, ...passed });
      } catch (error) {
        log(
          `mock: the journal could not keep a passthrough: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
    });
  };
}

/**
 * The mock as an Express app, for supertest or any server: a thin adapter over the core (mock/core), which answers
 * every request, and the control room (mock/control), which keeps the core's answers and serves `/__evalkit`.
 * Throws a MockSetupError when the options, a scenario file or a fixture is invalid.
 */
export function createMockApp(options: MockOptions = {}): Express {
  return mockAppWith(options, {});
}

/** createMockApp, with the tests' seams. */
export function mockAppWith(options: MockOptions, seams: MockSeams): Express {
  const scenarios = options.scenarioFile === undefined ? options.scenarios : readScenarioFile(options.scenarioFile);
  const folder = options.fixturesDir === undefined ? undefined : loadFixtureFolder(options.fixturesDir);
  const log = options.log ?? options.problems ?? ((line: string) => console.error(line));
  const config = resolveMockOptions({ ...options, scenarios, log }, folder);
  const core = mockCore(config);
  const events = new EventStream();
  const watcher =
    options.fixturesDir !== undefined && folder
      ? new FixtureWatcher(options.fixturesDir, folder, log, (status) => events.send(status, 'fixtures'))
      : undefined;
  const room = controlRoom({
    core,
    scenarios: config.scenarios,
    sessions: config.sessions,
    journalSize: options.journalSize,
    events,
    allowedHosts: options.allowedHosts ?? [],
    ...(watcher && { fixtures: () => watcher.status() }),
    ...(options.pseudonymizer && { pseudonymizer: options.pseudonymizer }),
    log,
  });
  // Chosen once: with a request log, each answer is told to it before it is delivered, the pass-through's refusals too.
  const settle: Settle = options.log
    ? (res, answer) => {
        logAnswer(res, answer);
        deliver(res, answer);
      }
    : deliver;
  const forward = passthroughOf(options, room, log, seams, settle);
  const app = express();
  closers.set(app, () => {
    room.close();
    watcher?.close();
    events.close();
  });
  // Only what FastAPI would send: no X-Powered-By, no ETag.
  app.disable('x-powered-by');
  app.disable('etag');
  if (options.log) app.use(requestLog(options.log));
  // A session's other paths go on to the backend as well, its prefix off; a bad session name is the mock's 400, and the
  // control room's paths are never forwarded, behind a session's prefix either.
  const forwarded = (url: string) =>
    !core.isOperation(url) && !badSessionPrefix(url) && !room.owns(withoutSessionPrefix(url));
  app.use((req, res) => {
    const request = { method: req.method, url: req.url, headers: req.headers, body: () => readBody(req, res) };
    if (room.owns(req.url)) {
      if (room.wantsEvents(request)) return events.open(req, res);
      return room.serve(request).then((answer) => settle(res, answer));
    }
    if (forward && forwarded(req.url)) return forward(req, res, request);
    const answer = core.handle(request);
    if (answer instanceof Promise) return answer.then((settled) => settle(res, settled));
    settle(res, answer);
  });
  return app;
}
