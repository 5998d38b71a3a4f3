import type { RequestHandler } from 'express';
import { HttpProblem } from './errors.js';

/** Which browser origins may call the mock: any (`*`, the default: a UI on any dev port works at once) or a list. */
export type CorsOrigins = '*' | readonly string[];

const allowHeaders = 'Content-Type, Authorization, Prefer';
/** Headers a UI reads from the answers: the retry hint of 429/503 and the scenario keys applied. */
const exposeHeaders = 'Retry-After, Preference-Applied';
const allowMethods = 'GET, HEAD, POST, OPTIONS';

/**
 * CORS for browser clients. Answers preflights itself (204), and marks actual answers readable by the origin.
 * With a list of origins, an unlisted origin's preflight gets a 403 naming the problem rather than a bare failure.
 */
export function cors(origins: CorsOrigins): RequestHandler {
  const listed = origins === '*' ? undefined : new Set(origins);
  return (req, res, next) => {
    const origin = req.headers.origin;
    if (origin === undefined) return next();
    const allowed = !listed || listed.has(origin);
    const preflight = req.method === 'OPTIONS' && req.headers['access-control-request-method'] !== undefined;
    if (!allowed) {
      if (preflight) throw new HttpProblem(403, 'CORS: this origin is not allowed by the mock (see --cors-origin)');
      return next();
    }
    if (listed) {
      res.setHeader('Access-Control-Allow-Origin', origin);
      res.setHeader('Access-Control-Allow-Credentials', 'true');
      res.setHeader('Vary', 'Origin');
    } else {
      res.setHeader('Access-Control-Allow-Origin', '*');
    }
    if (!preflight) {
      res.setHeader('Access-Control-Expose-Headers', exposeHeaders);
      return next();
    }
    res.setHeader('Access-Control-Allow-Methods', allowMethods);
    res.setHeader('Access-Control-Allow-Headers', req.headers['access-control-request-headers'] ?? allowHeaders);
    res.setHeader('Access-Control-Max-Age', '600');
    res.statusCode = 204;
    res.end();
  };
}
