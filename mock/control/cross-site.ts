import { mediaTypeOf } from '../../http/media-type.js';
import { HttpProblem } from '../core/errors.js';
import { announcesBody, headerValue, type MockRequest } from '../core/request-answer.js';

/**
 * Headers on every control-room answer, the event stream's included: no cache keeps one, no other origin's page may
 * frame or embed one (`no-cors` reads get nothing), the browser sniffs no type, and no Referer leaks a journal URL.
 * None grants CORS: whatever `--cors-origin` allows the API, another origin's page cannot read the control room.
 */
export const controlHeaders: Readonly<Record<string, string>> = {
  'Cache-Control': 'no-store',
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'no-referrer',
  'Cross-Origin-Resource-Policy': 'same-origin',
};

/** The methods that change nothing; every other one (PUT, PATCH, DELETE, and any POST to come) is a state change. */
const readMethods = new Set(['GET', 'HEAD', 'OPTIONS']);
/** Ways frameworks let a simple request stand for another method; the control room takes the method itself only. */
const overrideHeaders = ['x-http-method-override', 'x-http-method', 'x-method-override'];

const noCors = new HttpProblem(
  403,
  'The control room grants no cross-origin access (CORS) to a page of another origin, whatever --cors-origin ' +
    'allows the API: open the dashboard from the mock itself',
);
const methodOverride = new HttpProblem(
  400,
  'The control room takes no method override (X-HTTP-Method-Override, _method): send the method itself',
);
const notJson = new HttpProblem(
  415,
  'Content-Type must be application/json (or application/merge-patch+json) for a change to the control room (a ' +
    "form or text/plain is what a page of another site can send without the browser's preflight)",
);

/**
 * The media types a change may come in: JSON, and RFC 7396's JSON Merge Patch, which the room's PATCH is. Neither is
 * one a page of another site can send without a preflight.
 */
const changeTypes: ReadonlySet<string> = new Set(['application/json', 'application/merge-patch+json']);

function crossSite(site: string): HttpProblem {
  return new HttpProblem(403, `The control room refuses requests of another site's page (Sec-Fetch-Site: ${site})`);
}

/** The origin a same-origin page of the mock sends: from an absolute URL (MSW), else from Host (a server). */
function ownOrigin(request: MockRequest): string | undefined {
  try {
    return new URL(request.url).origin;
  } catch {
    const host = headerValue(request.headers, 'host');
    if (host === undefined) return undefined;
    try {
      return new URL(`http://${host}`).origin;
    } catch {
      return undefined;
    }
  }
}

/**
 * What the control room refuses of a request a browser may have sent on another page's behalf, by the headers a page
 * cannot forge (`Origin`, `Sec-Fetch-*`) and the forms that need no preflight:
 * - a preflight, which it never grants;
 * - a method override, in a header or `_method`;
 * - a read (GET) from another site's page (`Sec-Fetch-Site: cross-site`), but for a top-level navigation (a link to
 *   the dashboard), whose answer that page cannot read;
 * - a state change from another site's page (`cross-site`, `same-site`: another port of localhost is one), from
 *   another origin (an `Origin` other than the mock's own, `null` included), or with a body that is not JSON.
 * A client that is not a browser (curl, a test, a script) sends neither `Origin` nor `Sec-Fetch-Site` and is served.
 */
export function crossSiteProblem(request: MockRequest): HttpProblem | undefined {
  const origin = headerValue(request.headers, 'origin');
  if (request.method === 'OPTIONS' && origin !== undefined && request.headers['access-control-request-method'])
    return noCors;
  if (overrideHeaders.some((name) => request.headers[name] !== undefined)) return methodOverride;
  const query = request.url.indexOf('?');
  if (query >= 0 && new URLSearchParams(request.url.slice(query + 1)).has('_method')) return methodOverride;
  const site = headerValue(request.headers, 'sec-fetch-site')?.toLowerCase();
  if (readMethods.has(request.method)) {
    const navigation =
      headerValue(request.headers, 'sec-fetch-mode') === 'navigate' &&
      headerValue(request.headers, 'sec-fetch-dest') === 'document';
    return site === 'cross-site' && !navigation ? crossSite(site) : undefined;
  }
  if (site === 'cross-site' || site === 'same-site') return crossSite(site);
  if (origin !== undefined && origin !== ownOrigin(request))
    return new HttpProblem(
      403,
      `The control room refuses changes from another origin (Origin ${JSON.stringify(origin.slice(0, 100))})`,
    );
  const contentType = headerValue(request.headers, 'content-type');
  if (contentType === undefined ? announcesBody(request) : !changeTypes.has(mediaTypeOf(contentType) ?? ''))
    return notJson;
  return undefined;
}
