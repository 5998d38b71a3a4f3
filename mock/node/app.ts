import express, { type Express } from 'express';
import { controlRoom, type ControlRoomHandle } from '../control/control-room.js';
import type { MockAnswer } from '../core/exchange.js';
import { mockCore } from '../core/handle.js';
import { resolveMockOptions, type MockCoreOptions } from '../core/options.js';
import { deliver } from './deliver.js';
import { loadFixtureFolder } from './fixtures-folder.js';
import { readBody } from './read-body.js';
import { requestLog } from './request-log.js';
import { readScenarioFile } from './scenario-file.js';

export interface MockOptions extends MockCoreOptions {
  /** A JSON scenario config file (docs/mock.md), in place of `scenarios`. */
  scenarioFile?: string;
  /** Serve DIR/human-evaluations/<id>.json, in place of `fixtures`; every file is validated at start-up. */
  fixturesDir?: string;
  /** Where request log lines (and unforeseen errors) go; none when absent. */
  log?: (line: string) => void;
  /** Requests the control room's journal keeps (`GET /__evalkit/requests`); 0 turns it off. Default 500. */
  journalSize?: number;
}

/** The control room of each app, so whoever runs the app can close it (its fixtures watcher, its event streams). */
const rooms = new WeakMap<Express, ControlRoomHandle>();

/** Stops what an app of createMockApp runs besides answering: the fixtures watcher and open event streams. */
export function closeMockApp(app: Express): void {
  rooms.get(app)?.close();
}

/**
 * The mock as an Express app, for supertest or any server: a thin adapter over the core (mock/core), which answers
 * every request. Throws a MockSetupError when the options, a scenario file or a fixture is invalid.
 */
export function createMockApp(options: MockOptions = {}): Express {
  const scenarios = options.scenarioFile === undefined ? options.scenarios : readScenarioFile(options.scenarioFile);
  const folder = options.fixturesDir === undefined ? undefined : loadFixtureFolder(options.fixturesDir);
  const config = resolveMockOptions({ ...options, scenarios }, folder);
  const core = mockCore(config);
  const room = controlRoom({
    scenarios: config.scenarios,
    fixturesDir: options.fixturesDir,
    fixtures: folder,
    journalSize: options.journalSize,
    log: options.log ?? ((line) => console.error(line)),
  });
  const record = room.record;
  const app = express();
  rooms.set(app, room);
  // Only what FastAPI would send: no X-Powered-By, no ETag.
  app.disable('x-powered-by');
  app.disable('etag');
  if (options.log) app.use(requestLog(options.log));
  app.use((req, res) => {
    if (room.owns(req.url)) return room.serve(req, res);
    if (!record) {
      const answer = core.handle({
        method: req.method,
        url: req.url,
        headers: req.headers,
        body: () => readBody(req, res),
      });
      if (answer instanceof Promise) return answer.then((settled) => deliver(res, settled));
      return deliver(res, answer);
    }
    const arrived = Date.now();
    const started = performance.now();
    let body: Uint8Array | undefined;
    const journaled = (answer: MockAnswer) => {
      const durationMs = performance.now() - started;
      // Recorded once the answer is on its way: keeping the request never delays it.
      deliver(res, answer);
      record({ req, arrived, durationMs, body, answer });
    };
    const answer = core.handle({
      method: req.method,
      url: req.url,
      headers: req.headers,
      body: () => readBody(req, res).then((bytes) => (body = bytes)),
    });
    if (answer instanceof Promise) return answer.then(journaled);
    journaled(answer);
  });
  return app;
}
