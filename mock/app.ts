import express, { type Express, type RequestHandler } from 'express';
import { createEvaluations } from './evaluations.js';
import { cors } from './cors.js';
import { errorHandler, HttpProblem } from './errors.js';
import { fetchHumanEvaluation } from './human-evaluations.js';
import { resolveMockOptions, type MockOptions } from './options.js';
import { requestLog } from './request-log.js';
import { jsonBody } from './request-body.js';

/** 405 with Allow, as the HTTP spec asks (Prism leaves Allow out); a plain OPTIONS gets 204 and the same Allow. */
function otherMethods(allowed: string[]): RequestHandler {
  const allow = [...allowed, 'OPTIONS'].join(', ');
  const notAllowed = new HttpProblem(405, 'Method Not Allowed', { Allow: allow });
  return (req, res) => {
    if (req.method !== 'OPTIONS') throw notAllowed;
    res.setHeader('Allow', allow);
    res.statusCode = 204;
    res.end();
  };
}

/**
 * The mock as an Express app, for supertest or any server: both operations of the spec, scenarios, fixtures, and a
 * JSON answer for every failure. Throws a MockSetupError when the options, a scenario file or a fixture is invalid.
 */
export function createMockApp(options: MockOptions = {}): Express {
  const config = resolveMockOptions(options);
  const app = express();
  // Only what FastAPI would send: no X-Powered-By, no ETag; paths match case-sensitively, as Starlette's do.
  app.disable('x-powered-by');
  app.disable('etag');
  app.enable('case sensitive routing');

  if (config.log) app.use(requestLog(config.log));
  if (config.cors) app.use(cors(config.cors));

  const routes = express.Router({ caseSensitive: true });
  routes
    .route('/human-evaluations/:evaluation_id')
    .get(fetchHumanEvaluation({ scenarios: config.scenarios, fixtures: config.fixtures, strictIds: config.strictIds }))
    .all(otherMethods(['GET', 'HEAD']));
  routes
    .route('/evaluations')
    .post(...jsonBody, createEvaluations(config.scenarios))
    .all(otherMethods(['POST']));
  app.use(config.basePath || '/', routes);

  const base = config.basePath;
  const notFound = new HttpProblem(
    404,
    `Not Found: this mock serves GET ${base}/human-evaluations/{evaluation_id} and POST ${base}/evaluations`,
  );
  app.use(() => {
    throw notFound;
  });
  app.use(errorHandler(config.log ?? ((line) => process.stderr.write(`${line}\n`))));
  return app;
}
