import { cors } from './cors.js';
import { HttpProblem, internalError } from './errors.js';
import { createEvaluations } from './evaluations.js';
import { pathOf, problemAnswer as answerOf, type MockAnswer, type MockRequest } from './exchange.js';
import { fetchHumanEvaluation } from './human-evaluations.js';
import { resolveMockOptions, type MockConfig, type MockCoreOptions } from './options.js';
import { readJsonBody } from './request-body.js';

/** The mock with no framework in it: a request in, an answer out. Every adapter (Express, MSW, a test) wraps this. */
export interface MockCore {
  /** Answers one request; synchronous unless the request's body is read asynchronously or a latency applies. Never throws. */
  handle(request: MockRequest): MockAnswer | Promise<MockAnswer>;
  /**
   * Whether a URL is the mock's to answer: any path under its base path, or, served at the root, the two operations'
   * paths only (so a host app's other requests pass by, e.g. in a service worker).
   */
  serves(url: string): boolean;
}

const humanEvaluationPath = '/human-evaluations/';
const evaluationsPath = '/evaluations';
type Target = { operation: 'fetchHumanEvaluation'; rawId: string } | { operation: 'createEvaluation' };

const badPath = new HttpProblem(400, 'The request path is not valid percent-encoded UTF-8');

/** 405 with Allow, as the HTTP spec asks (Prism leaves Allow out); a plain OPTIONS gets 204 and the same Allow. */
function otherMethods(allowed: string[]): (method: string, headers: Record<string, string>) => MockAnswer {
  const allow = [...allowed, 'OPTIONS'].join(', ');
  const notAllowed = new HttpProblem(405, 'Method Not Allowed', { Allow: allow });
  return (method, headers) => {
    if (method !== 'OPTIONS') throw notAllowed;
    headers.Allow = allow;
    return { status: 204, headers };
  };
}

function decodeId(raw: string): string {
  if (!raw.includes('%')) return raw;
  try {
    return decodeURIComponent(raw);
  } catch {
    throw badPath;
  }
}

/** A core made from settled options (adapters that read files settle them first). */
export function mockCore(config: MockConfig): MockCore {
  const base = config.basePath;
  const withCors = config.cors ? cors(config.cors) : undefined;
  const fetchOne = fetchHumanEvaluation({
    scenarios: config.scenarios,
    fixtures: config.fixtures,
    strictIds: config.strictIds,
  });
  const create = createEvaluations(config.scenarios);
  const fetchOthers = otherMethods(['GET', 'HEAD']);
  const createOthers = otherMethods(['POST']);
  const notFound = new HttpProblem(
    404,
    `Not Found: this mock serves GET ${base}/human-evaluations/{evaluation_id} and POST ${base}/evaluations`,
  );
  const report = config.log ?? ((line: string) => console.error(line));

  function problemAnswer(error: unknown, headers: Record<string, string>): MockAnswer {
    const problem = error instanceof HttpProblem ? error : internalError;
    // Only an unforeseen error is reported, by its message alone, since a stack or the request could hold a body value.
    if (problem === internalError)
      report(`mock: internal error: ${error instanceof Error ? error.message : String(error)}`);
    return answerOf(problem, headers);
  }

  /** Which operation a URL names (with the raw id of a fetch), `null` under the base path but no operation's, undefined outside. */
  function locate(url: string): Target | null | undefined {
    let path = pathOf(url);
    // Paths match case-sensitively, as Starlette's do; one trailing slash is forgiven, as Express forgives it.
    if (base !== '') {
      if (!path.startsWith(base) || (path.length > base.length && path[base.length] !== '/')) return undefined;
      path = path.slice(base.length);
    }
    if (path.length > 1 && path.endsWith('/')) path = path.slice(0, -1);
    if (path.startsWith(humanEvaluationPath)) {
      const rawId = path.slice(humanEvaluationPath.length);
      return rawId === '' || rawId.includes('/') ? null : { operation: 'fetchHumanEvaluation', rawId };
    }
    return path === evaluationsPath ? { operation: 'createEvaluation' } : null;
  }

  function route(request: MockRequest, headers: Record<string, string>): MockAnswer | Promise<MockAnswer> {
    const preflight = withCors?.(request, headers);
    if (preflight) return preflight;
    const target = locate(request.url);
    if (!target) throw notFound;
    const method = request.method;
    if (target.operation === 'fetchHumanEvaluation') {
      if (method !== 'GET' && method !== 'HEAD') return fetchOthers(method, headers);
      return fetchOne(decodeId(target.rawId), request, headers);
    }
    if (method !== 'POST') return createOthers(method, headers);
    const body = readJsonBody(request);
    return body instanceof Promise
      ? body.then((parsed) => create(parsed, request, headers))
      : create(body, request, headers);
  }

  return {
    serves(url) {
      const target = locate(url);
      return base === '' ? Boolean(target) : target !== undefined;
    },
    handle(request) {
      const headers: Record<string, string> = {};
      try {
        const answer = route(request, headers);
        return answer instanceof Promise ? answer.catch((error: unknown) => problemAnswer(error, headers)) : answer;
      } catch (error) {
        return problemAnswer(error, headers);
      }
    },
  };
}

/**
 * The mock core: both operations of the spec, scenarios (server-wide and per request through `Prefer`), fixtures,
 * CORS, and a FastAPI-shaped JSON answer for every failure. Throws a MockSetupError when an option is invalid.
 */
export function createMockCore(options: MockCoreOptions = {}): MockCore {
  return mockCore(resolveMockOptions(options));
}
