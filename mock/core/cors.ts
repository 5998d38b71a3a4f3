import { operation, operationIds } from '../../api/operations.js';
import { headerValue, type MockAnswer, type MockRequest } from './request-answer.js';
import { HttpProblem } from './errors.js';
import { MockSetupError } from './setup-error.js';

/** Which browser origins may call the mock: any (`*`, the default: a UI on any dev port works at once) or a list. */
export type CorsOrigins = '*' | readonly string[];

const allowHeaders = 'Content-Type, Authorization, Prefer';
/**
 * Headers a UI reads from the answers: the retry hint of 429/503, the scenario keys applied, and the challenge of a 401
 * (an app built to handle one reads it; without this, a browser hides it).
 */
const exposeHeaders = 'Retry-After, Preference-Applied, WWW-Authenticate';
/** Every method the operations take (api/operations.ts), and OPTIONS: `GET, HEAD, POST, OPTIONS`. */
export const allowMethods = [...new Set(operationIds.flatMap((id) => operation(id).methods)), 'OPTIONS'].join(', ');

/** What a browser sends in `Origin`: an http(s) scheme, a host and maybe a port, nothing after. */
function isOrigin(text: string): boolean {
  if (!URL.canParse(text)) return false;
  const url = new URL(text);
  return (url.protocol === 'http:' || url.protocol === 'https:') && url.origin === text;
}

/**
 * The origins as the mock serves them, checked wherever they come from (the CLI or a library caller): each an origin
 * a browser can send, or `*`, which allows any. A MockSetupError names the first that is neither.
 */
export function corsOrigins(origins: false | CorsOrigins | undefined): false | CorsOrigins {
  if (origins === undefined || origins === '*') return '*';
  if (origins === false) return false;
  const refused = origins.find((origin) => origin !== '*' && !isOrigin(origin));
  if (refused !== undefined)
    throw new MockSetupError(
      `--cors-origin must be an origin like http://localhost:5173 (scheme, host, port; no path), or *; ` +
        `got '${refused}'`,
    );
  return origins.includes('*') ? '*' : origins;
}

/**
 * CORS for browser clients: adds the headers that mark an answer readable by the origin, or returns the answer to a
 * preflight (204). With a list of origins, an unlisted origin's preflight gets a 403 naming the problem rather than
 * a bare failure.
 */
export function cors(
  origins: CorsOrigins,
): (request: MockRequest, headers: Record<string, string>) => MockAnswer | undefined {
  const listed = origins === '*' ? undefined : new Set(origins);
  return (request, headers) => {
    const origin = headerValue(request.headers, 'origin');
    if (origin === undefined) return undefined;
    const allowed = !listed || listed.has(origin);
    const preflight = request.method === 'OPTIONS' && request.headers['access-control-request-method'] !== undefined;
    if (!allowed) {
      if (preflight) throw new HttpProblem(403, 'CORS: this origin is not allowed by the mock (see --cors-origin)');
      return undefined;
    }
    if (listed) {
      headers['Access-Control-Allow-Origin'] = origin;
      headers['Access-Control-Allow-Credentials'] = 'true';
      headers.Vary = 'Origin';
    } else {
      headers['Access-Control-Allow-Origin'] = '*';
    }
    if (!preflight) {
      headers['Access-Control-Expose-Headers'] = exposeHeaders;
      return undefined;
    }
    headers['Access-Control-Allow-Methods'] = allowMethods;
    headers['Access-Control-Allow-Headers'] =
      headerValue(request.headers, 'access-control-request-headers') ?? allowHeaders;
    headers['Access-Control-Max-Age'] = '600';
    return { status: 204, headers };
  };
}
