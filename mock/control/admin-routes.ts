import type { IncomingMessage, ServerResponse } from 'node:http';
import { renderOpenApi } from '../../api/openapi.js';
import { HttpProblem, internalError } from '../core/errors.js';
import { jsonAnswer, pathOf, problemAnswer, type MockAnswer } from '../core/exchange.js';
import { readJsonBody } from '../core/request-body.js';
import { ScenarioError } from '../core/scenarios.js';
import { serialize } from '../core/serialize.js';
import { deliver } from '../node/deliver.js';
import { readBody } from '../node/read-body.js';
import { dashboardPage } from './dashboard.js';
import { entryView } from './entry-view.js';
import type { EventStream } from './event-stream.js';
import type { FixtureWatcher } from '../node/fixture-watcher.js';
import type { Journal } from './journal.js';
import type { ScenarioStore } from './scenario-store.js';
import { controlPrefix } from './prefix.js';

/** What the admin routes work on. */
export interface ControlRoom {
  /** Absent with `--no-journal`. */
  journal: Journal | undefined;
  events: EventStream;
  scenarios: ScenarioStore;
  /** Absent without `--fixtures`. */
  fixtures: FixtureWatcher | undefined;
  log: (line: string) => void;
}

type Route = (req: IncomingMessage, res: ServerResponse) => MockAnswer | undefined | Promise<MockAnswer | undefined>;

function json(status: number, value: unknown): MockAnswer {
  // The control room's answers change with every request: no cache may keep one.
  return jsonAnswer(status, serialize(value), { 'Cache-Control': 'no-store' });
}

const journalOff = new HttpProblem(404, 'The request journal is off (the mock was started with --no-journal)');

function limitOf(req: IncomingMessage, capacity: number): number {
  const raw = new URL(req.url ?? '/', 'http://mock').searchParams.get('limit');
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

/** The scenario config a PUT carries: JSON as the core reads any body (415, 413, 400, 422 for no body). */
async function scenarioBody(req: IncomingMessage, res: ServerResponse): Promise<unknown> {
  return readJsonBody({ method: 'PUT', url: req.url ?? '/', headers: req.headers, body: () => readBody(req, res) });
}

function routes(room: ControlRoom): Record<string, Partial<Record<string, Route>>> {
  // Both made on first use and kept: they never change while the mock runs.
  let page: MockAnswer | undefined;
  let openApi: Uint8Array | undefined;
  const dashboard = () => (page ??= dashboardPage(room.journal?.capacity ?? 0));
  return {
    '': { GET: dashboard },
    '/': { GET: dashboard },
    '/openapi.json': {
      GET: () =>
        jsonAnswer(200, (openApi ??= new TextEncoder().encode(renderOpenApi('json'))), { 'Cache-Control': 'no-store' }),
    },
    '/requests': {
      GET: (req) => {
        const journal = requireJournal(room);
        return json(200, { requests: journal.list(limitOf(req, journal.capacity)).map(entryView) });
      },
      DELETE: () => {
        requireJournal(room).clear();
        room.events.send({}, 'cleared');
        return { status: 204, headers: {} };
      },
    },
    '/events': {
      GET: (req, res) => {
        room.events.open(req, res);
        return undefined;
      },
    },
    '/scenario': {
      GET: () => json(200, room.scenarios.current()),
      PUT: async (req, res) => {
        const body = await scenarioBody(req, res);
        let data;
        try {
          data = room.scenarios.replace(body);
        } catch (error) {
          if (!(error instanceof ScenarioError)) throw error;
          throw new HttpProblem(422, `scenario: ${error.message}; the scenario in force is unchanged`);
        }
        room.events.send(data, 'scenario');
        return json(200, data);
      },
      DELETE: () => {
        const data = room.scenarios.restore();
        room.events.send(data, 'scenario');
        return json(200, data);
      },
    },
    '/fixtures': {
      GET: () =>
        json(
          200,
          room.fixtures?.status() ?? { dir: null, fixtures: 0, loaded_at: null, problems: [], failed_at: null },
        ),
    },
  };
}

/**
 * The control room's HTTP interface under `/__evalkit` (docs/mock.md, "Control room"). It sends no CORS headers on
 * purpose: another origin's page can neither read the journal nor change the scenario of a developer's mock.
 */
export function adminRoutes(room: ControlRoom): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  const table = routes(room);
  const notFound = new HttpProblem(
    404,
    `Not Found: the control room serves ${Object.keys(table)
      .filter((path) => path !== '')
      .map((path) => `${controlPrefix}${path}`)
      .join(', ')}`,
  );
  return async (req, res) => {
    let answer: MockAnswer | undefined;
    try {
      const path = pathOf(req.url ?? '/').slice(controlPrefix.length);
      const methods = Object.hasOwn(table, path) ? table[path] : undefined;
      if (!methods) throw notFound;
      const route = Object.hasOwn(methods, req.method ?? '') ? methods[req.method as string] : undefined;
      if (!route) throw new HttpProblem(405, 'Method Not Allowed', { Allow: Object.keys(methods).join(', ') });
      answer = await route(req, res);
    } catch (error) {
      if (!(error instanceof HttpProblem))
        room.log(`evalkit mock: control room: internal error: ${(error as Error).message}`);
      answer = problemAnswer(error instanceof HttpProblem ? error : internalError, {});
    }
    if (answer) deliver(res, answer);
  };
}
