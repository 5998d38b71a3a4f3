import { matchPath, pathOf, relativeToBase, type PathMatch } from '../../api/match.js';
import { operation, operationIds, type OperationId } from '../../api/operations.js';
import { cors } from './cors.js';
import { HttpProblem, internalError } from './errors.js';
import { observable, type AnswerObserver } from './observe.js';
import { resolveMockOptions, type MockConfig, type MockCoreOptions } from './options.js';
import { problemAnswer as answerOf, type MockAnswer, type MockRequest } from './request-answer.js';
import { mockOperations, type OperationHandler } from './operations.js';
import { Progress } from './progress.js';
import { sessionPrefixed, sessionRoute, withoutSessionPrefix, type RequestContext } from './sessions.js';

/** The mock with no framework in it: a request in, an answer out. Every adapter (Express, MSW, a test) wraps this. */
export interface MockCore {
  /**
   * Answers one request; synchronous unless the request's body is read asynchronously or a latency applies.
   * Never throws.
   */
  handle(request: MockRequest): MockAnswer | Promise<MockAnswer>;
  /**
   * Whether a URL is the mock's to answer: any path under its base path, or, served at the root, the operations'
   * paths only (so a host app's other requests pass by, e.g. in a service worker).
   */
  serves(url: string): boolean;
  /** Whether a URL is one of the operations' paths, whatever the method: what a pass-through never forwards. */
  isOperation(url: string): boolean;
  /**
   * Tells `observer` of every request answered from now on, once its answer is settled and before the adapter
   * delivers it (the control room's journal listens here). Returns the function that stops it.
   */
  observe(observer: AnswerObserver): () => void;
}

const badPath = new HttpProblem(400, 'The request path is not valid percent-encoded UTF-8');

/** What answers a method an operation's path does not take. */
type OtherMethod = (method: string, headers: Record<string, string>) => MockAnswer;

/** 405 with Allow, as the HTTP spec asks (Prism leaves Allow out); a plain OPTIONS gets 204 and the same Allow. */
function otherMethods(allowed: readonly string[]): OtherMethod {
  const allow = [...allowed, 'OPTIONS'].join(', ');
  const notAllowed = new HttpProblem(405, 'Method Not Allowed', { Allow: allow });
  return (method, headers) => {
    if (method !== 'OPTIONS') throw notAllowed;
    headers.Allow = allow;
    return { status: 204, headers };
  };
}

/** An answer marked with the session its request named, for the journal. */
function inSession(answer: MockAnswer, session: string | undefined): MockAnswer {
  if (session !== undefined) answer.session = session;
  return answer;
}

/** A core made from settled options (adapters that read files settle them first). */
export function mockCore(config: MockConfig): MockCore {
  const base = config.basePath;
  // The server's requests: its book as the control room last put it in force, and its own progress clock.
  const serverContext: RequestContext = {
    scenarios: {
      forOperation: (id) => config.scenarios.current.forOperation(id),
      forHumanEvaluation: (id) => config.scenarios.current.forHumanEvaluation(id),
    },
    progress: new Progress(),
  };
  const withCors = config.cors ? cors(config.cors) : undefined;
  const operations = Object.fromEntries(
    operationIds.map((id) => [id, mockOperations[id].handler(config, mockOperations[id].scenarioAnswers)] as const),
  ) as Record<OperationId, OperationHandler>;
  const refusals = operationIds.map((id) => [id, otherMethods(operation(id).methods)] as const);
  const others = Object.fromEntries(refusals) as Record<OperationId, OtherMethod>;
  // operationLabel's form with the base path in it, for each operation of api/operations.ts.
  const served = operationIds.map((id) => `${operation(id).method} ${base}${operation(id).path}`);
  const notFound = new HttpProblem(404, `Not Found: this mock serves ${served.join(' and ')}`);

  function problemAnswer(error: unknown, headers: Record<string, string>): MockAnswer {
    const problem = error instanceof HttpProblem ? error : internalError;
    // Only an unforeseen error is reported, by its message alone, since a stack or the request could hold a body value.
    if (problem === internalError)
      config.log(`mock: internal error: ${error instanceof Error ? error.message : String(error)}`);
    return answerOf(problem, headers);
  }

  /** Where a URL lands under the base path (api/match.ts); undefined outside the base path. */
  function locate(url: string): PathMatch | undefined {
    const path = relativeToBase(pathOf(url), base);
    return path === undefined ? undefined : matchPath(path);
  }

  function isOperation(url: string): boolean {
    const target = locate(withoutSessionPrefix(url));
    return target !== undefined && target.kind !== 'unknown';
  }

  function route(
    request: MockRequest,
    headers: Record<string, string>,
    context: RequestContext,
  ): MockAnswer | Promise<MockAnswer> {
    const preflight = withCors?.(request, headers);
    if (preflight) return preflight;
    const target = locate(request.url);
    if (target === undefined || target.kind === 'unknown') throw notFound;
    const method = request.method;
    if (!operation(target.operation).methods.includes(method)) return others[target.operation](method, headers);
    if (target.kind === 'undecodable') throw badPath;
    return operations[target.operation](target.params, request, headers, context);
  }

  function answer(request: MockRequest): MockAnswer | Promise<MockAnswer> {
    const headers: Record<string, string> = {};
    let session: string | undefined;
    try {
      const named = sessionRoute(request.url, request.headers);
      if (named === undefined) return settled(route(request, headers, serverContext), headers, undefined);
      session = named.session;
      const answered = route({ ...request, url: named.url }, headers, config.sessions.context(session));
      return settled(answered, headers, session);
    } catch (error) {
      return inSession(problemAnswer(error, headers), session);
    }
  }

  /** The answer, a rejection answered as its problem, marked with the session it was answered in. */
  function settled(
    answered: MockAnswer | Promise<MockAnswer>,
    headers: Record<string, string>,
    session: string | undefined,
  ): MockAnswer | Promise<MockAnswer> {
    if (!(answered instanceof Promise)) return inSession(answered, session);
    return answered.then(
      (answer) => inSession(answer, session),
      (error: unknown) => inSession(problemAnswer(error, headers), session),
    );
  }

  const { handle, observe } = observable(answer, config.log);
  return {
    serves: (url) => sessionPrefixed(url) || (base === '' ? isOperation(url) : locate(url) !== undefined),
    isOperation,
    handle,
    observe,
  };
}

/**
 * The mock core: both operations of the spec, scenarios (server-wide and per request through `Prefer`), fixtures,
 * CORS, and a FastAPI-shaped JSON answer for every failure. Throws a MockSetupError when an option is invalid.
 */
export function createMockCore(options: MockCoreOptions = {}): MockCore {
  return mockCore(resolveMockOptions(options));
}
