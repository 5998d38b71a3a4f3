import type { IncomingMessage, ServerResponse } from 'node:http';
import express, { type Express } from 'express';
import { mockCore } from '../core/handle.js';
import { maxBodyBytes } from '../core/limits.js';
import { resolveMockOptions, type MockCoreOptions } from '../core/options.js';
import { deliver } from './deliver.js';
import { bodyReadProblem } from './errors.js';
import { loadFixtureFolder } from './fixtures-folder.js';
import { requestLog } from './request-log.js';
import { readScenarioFile } from './scenario-file.js';

export interface MockOptions extends MockCoreOptions {
  /** A JSON scenario config file (docs/mock.md), in place of `scenarios`. */
  scenarioFile?: string;
  /** Serve DIR/human-evaluations/<id>.json, in place of `fixtures`; every file is validated at start-up. */
  fixturesDir?: string;
  /** Where request log lines (and unforeseen errors) go; none when absent. */
  log?: (line: string) => void;
}

/** body-parser reads and inflates (gzip, deflate, br) within the limit; the core has checked the media type first. */
const rawBody = express.raw({ type: () => true, limit: maxBodyBytes });

function readBody(req: IncomingMessage & { body?: unknown }, res: ServerResponse): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    rawBody(req as express.Request, res as express.Response, (error?: unknown) => {
      if (error) reject(bodyReadProblem(error));
      else resolve(Buffer.isBuffer(req.body) ? req.body : new Uint8Array(0));
    });
  });
}

/**
 * The mock as an Express app, for supertest or any server: a thin adapter over the core (mock/core), which answers
 * every request. Throws a MockSetupError when the options, a scenario file or a fixture is invalid.
 */
export function createMockApp(options: MockOptions = {}): Express {
  const scenarios = options.scenarioFile === undefined ? options.scenarios : readScenarioFile(options.scenarioFile);
  const folder = options.fixturesDir === undefined ? undefined : loadFixtureFolder(options.fixturesDir);
  const core = mockCore(resolveMockOptions({ ...options, scenarios }, folder));
  const app = express();
  // Only what FastAPI would send: no X-Powered-By, no ETag.
  app.disable('x-powered-by');
  app.disable('etag');
  if (options.log) app.use(requestLog(options.log));
  app.use((req, res) => {
    const answer = core.handle({ method: req.method, url: req.url, headers: req.headers, body: () => readBody(req, res) });
    if (answer instanceof Promise) return answer.then((settled) => deliver(res, settled));
    deliver(res, answer);
  });
  return app;
}
