import { pathOf } from '../../api/match.js';
import { openApiJson } from '../../api/openapi-document.js';
import { HttpProblem, internalError } from '../core/errors.js';
import { jsonAnswer, problemAnswer, type MockAnswer, type MockRequest } from '../core/request-answer.js';
import { readJsonBody } from '../core/request-body.js';
import type { ScenarioFileData } from '../core/scenario-book.js';
import { ScenarioError } from '../core/scenarios.js';
import { serialize } from '../core/serialize.js';
import { dashboardPage } from './dashboard.js';
import { entryView } from './entry-view.js';
import type { Journal } from './journal.js';
import { mergedScenario, type ScenarioStore } from './scenario-store.js';
import { isSessionName, sessionNameProblem, type Sessions } from '../core/sessions.js';
import { controlPrefix } from './prefix.js';

/** What the dashboard shows of the fixtures folder (`GET /__evalkit/fixtures`). */
export interface FixtureStatus {
  dir: string;
  fixtures: number;
  /** When the set in use was loaded. */
  loaded_at: string;
  /** Problems of the last reload, which was refused: the set in use is the previous one. Empty when it loaded. */
  problems: string[];
  /** When the last refused reload was tried. */
  failed_at: string | null;
}

/** Where the control room's events go (the Node server's text/event-stream); named events, or plain messages. */
export interface EventSink {
  /** Whether anyone listens: the room skips building an event nobody would receive. */
  readonly listening: boolean;
  send(data: unknown, event?: string): void;
}

/** What the admin routes work on. */
export interface ControlRoom {
  /** Absent with `--no-journal`. */
  journal: Journal | undefined;
  events: EventSink | undefined;
  scenarios: ScenarioStore;
  sessions: Sessions;
  /** The fixtures folder's state; absent without `--fixtures`. */
  fixtures: (() => FixtureStatus) | undefined;
  log: (line: string) => void;
}

type Route = (request: MockRequest) => MockAnswer | Promise<MockAnswer>;

function json(status: number, value: unknown): MockAnswer {
  return jsonAnswer(status, serialize(value), {});
}

const journalOff = new HttpProblem(404, 'The request journal is off (the mock was started with --no-journal)');
const noEventStream = new HttpProblem(
  404,
  `The event stream is served by evalkit mock's server only: read ${controlPrefix}/requests instead`,
);

function limitOf(request: MockRequest, capacity: number): number {
  const raw = new URL(request.url, 'http://mock').searchParams.get('limit');
  if (raw === null) return capacity;
  if (!/^\d{1,9}$/.test(raw) || Number(raw) < 1) {
    throw new HttpProblem(422, [
      { loc: ['query', 'limit'], msg: `limit must be an integer from 1 to ${capacity}`, type: 'value_error.number' },
    ]);
  }
  return Math.min(Number(raw), capacity);
}

function requireJournal(room: ControlRoom): Journal {
  if (!room.journal) throw journalOff;
  return room.journal;
}

/**
 * A scenario changed by a request's JSON body, read as the core reads any body (415, 413, 400, and 422 for no body);
 * a body the scenario parser refuses is a 422 in its words, the scenario in force unchanged.
 */
async function changedScenario(
  request: MockRequest,
  change: (body: unknown) => ScenarioFileData,
): Promise<ScenarioFileData> {
  const body = await readJsonBody(request);
  try {
    return change(body);
  } catch (error) {
    if (!(error instanceof ScenarioError)) throw error;
    throw new HttpProblem(422, `scenario: ${error.message}; the scenario in force is unchanged`);
  }
}

/** `/sessions/NAME/scenario`: a session's own scenario, with the bodies `/scenario` takes; `DELETE` leaves it none. */
function sessionRoutes(
  sessions: Sessions,
  path: string,
  send: (data: unknown, event: string) => void,
): Partial<Record<string, Route>> | undefined {
  const name = /^\/sessions\/([^/]*)\/scenario$/.exec(path)?.[1];
  if (name === undefined) return undefined;
  if (!isSessionName(name)) throw sessionNameProblem(`the path ${controlPrefix}/sessions/NAME/scenario`, name);
  // Each change tells the dashboard the sessions as they now stand.
  const changed = (data: ScenarioFileData) => {
    send(sessions.list(), 'sessions');
    return json(200, data);
  };
  const change = async (request: MockRequest, merge: boolean) =>
    changed(
      await changedScenario(request, (body) =>
        sessions.replace(name, merge ? mergedScenario(sessions.scenario(name), body) : body),
      ),
    );
  return {
    GET: () => json(200, sessions.scenario(name)),
    PUT: (request) => change(request, false),
    PATCH: (request) => change(request, true),
    DELETE: () => changed(sessions.replace(name, {})),
  };
}

function routes(room: ControlRoom): Record<string, Partial<Record<string, Route>>> {
  // Both made on first use and kept: they never change while the mock runs.
  let page: Promise<MockAnswer> | undefined;
  let openApi: Uint8Array | undefined;
  const dashboard = () => (page ??= dashboardPage(room.journal?.capacity ?? 0, room.scenarios.startupData()));
  const send = (data: unknown, event: string) => room.events?.send(data, event);
  // The scenario config is JSON as the core reads any body: 415, 413, 400, and 422 for no body.
  const changeScenario = async (request: MockRequest, change: (body: unknown) => ScenarioFileData) => {
    const data = await changedScenario(request, change);
    send(data, 'scenario');
    return json(200, data);
  };
  return {
    '': { GET: dashboard },
    '/': { GET: dashboard },
    '/openapi.json': {
      GET: () => jsonAnswer(200, (openApi ??= new TextEncoder().encode(openApiJson())), {}),
    },
    '/requests': {
      GET: (request) => {
        const journal = requireJournal(room);
        const session = new URL(request.url, 'http://mock').searchParams.get('session') ?? undefined;
        return json(200, { requests: journal.list(limitOf(request, journal.capacity), session).map(entryView) });
      },
      DELETE: () => {
        requireJournal(room).clear();
        send({}, 'cleared');
        return { status: 204, headers: {} };
      },
    },
    '/events': {
      GET: () => {
        throw noEventStream;
      },
    },
    '/scenario': {
      GET: () => json(200, room.scenarios.current()),
      PUT: (request) => changeScenario(request, (body) => room.scenarios.replace(body)),
      PATCH: (request) => changeScenario(request, (body) => room.scenarios.merge(body)),
      DELETE: () => {
        const data = room.scenarios.restore();
        send(data, 'scenario');
        return json(200, data);
      },
    },
    '/sessions': {
      GET: () => json(200, { sessions: room.sessions.list() }),
    },
    '/fixtures': {
      GET: () =>
        json(200, room.fixtures?.() ?? { dir: null, fixtures: 0, loaded_at: null, problems: [], failed_at: null }),
    },
  };
}

/**
 * The control room's HTTP interface under `/__evalkit` (docs/mock.md, "Control room"), in the core's currency: a
 * MockRequest in, a MockAnswer out, so it answers behind any adapter. Who may reach it, and the headers of every
 * answer, are the control room's (control-room.ts); it sends no CORS headers.
 */
export function adminRoutes(room: ControlRoom): (request: MockRequest) => Promise<MockAnswer> {
  const table = routes(room);
  const notFound = new HttpProblem(
    404,
    `Not Found: the control room serves ${Object.keys(table)
      .filter((path) => path !== '')
      .map((path) => `${controlPrefix}${path}`)
      .join(', ')}`,
  );
  return async (request) => {
    try {
      const path = pathOf(request.url).slice(controlPrefix.length);
      const methods = Object.hasOwn(table, path)
        ? table[path]
        : sessionRoutes(room.sessions, path, (data, event) => room.events?.send(data, event));
      if (!methods) throw notFound;
      // HEAD is GET without the body (the HTTP server leaves it out), as for the API's paths.
      const method = request.method === 'HEAD' && Object.hasOwn(methods, 'GET') ? 'GET' : request.method;
      const route = Object.hasOwn(methods, method) ? methods[method] : undefined;
      if (!route) {
        const allowed = Object.keys(methods);
        const allow = allowed.includes('GET') ? [...allowed, 'HEAD'] : allowed;
        throw new HttpProblem(405, 'Method Not Allowed', { Allow: allow.join(', ') });
      }
      return await route(request);
    } catch (error) {
      if (!(error instanceof HttpProblem))
        room.log(`evalkit mock: control room: internal error: ${(error as Error).message}`);
      return problemAnswer(error instanceof HttpProblem ? error : internalError, {});
    }
  };
}
