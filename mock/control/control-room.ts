import type { IncomingMessage, ServerResponse } from 'node:http';
import type { MockAnswer } from '../core/exchange.js';
import type { Fixture } from '../core/fixture-set.js';
import { MockSetupError } from '../core/setup-error.js';
import type { ScenarioHolder } from '../core/scenario-book.js';
import { adminRoutes } from './admin-routes.js';
import { controlPrefix } from './prefix.js';
import { entryView } from './entry-view.js';
import { EventStream } from './event-stream.js';
import { FixtureWatcher } from '../node/fixture-watcher.js';
import { defaultJournalSize, Journal, maxJournalSize } from './journal.js';
import { keptAnswerBody, redactBody, redactHeaders } from './redaction.js';
import { ScenarioStore } from './scenario-store.js';

export interface ControlRoomOptions {
  /** The core's scenario holder, swapped by `PUT /__evalkit/scenario`. */
  scenarios: ScenarioHolder;
  /** `--fixtures DIR` and the map the core serves from it: watched and reloaded in place. */
  fixturesDir?: string;
  fixtures?: Map<string, Fixture>;
  /** Requests kept; 0 turns the journal off. Default 500. */
  journalSize?: number;
  log: (line: string) => void;
}

/** One request the adapter answered, as the journal needs it. */
export interface Exchange {
  req: IncomingMessage;
  /** Epoch ms at arrival. */
  arrived: number;
  /** From arrival to the answer being ready (latency included). */
  durationMs: number;
  /** The body bytes the core had read, if it read any. */
  body: Uint8Array | undefined;
  answer: MockAnswer;
}

export interface ControlRoomHandle {
  /** Whether a request is the control room's (anything under /__evalkit), not the API's. */
  owns(url: string): boolean;
  serve(req: IncomingMessage, res: ServerResponse): Promise<void>;
  /** Records an answered request in the journal; undefined when the journal is off, so callers skip the bookkeeping. */
  record: ((exchange: Exchange) => void) | undefined;
  close(): void;
}

function journalOf(size: number | undefined): Journal | undefined {
  const capacity = size ?? defaultJournalSize;
  if (!Number.isInteger(capacity) || capacity < 0 || capacity > maxJournalSize) {
    throw new MockSetupError(`journal size must be an integer from 0 (off) to ${maxJournalSize}, got ${String(size)}`);
  }
  return capacity === 0 ? undefined : new Journal(capacity);
}

/**
 * The control room (docs/mock.md, "Control room"): a journal of requests with their credentials redacted, an event
 * stream of it, the server scenario at run time, a dashboard, and a fixtures folder reloaded on change.
 */
export function controlRoom(options: ControlRoomOptions): ControlRoomHandle {
  const journal = journalOf(options.journalSize);
  const events = new EventStream();
  const fixtures =
    options.fixturesDir !== undefined && options.fixtures
      ? new FixtureWatcher(options.fixturesDir, options.fixtures, options.log, (status) =>
          events.send(status, 'fixtures'),
        )
      : undefined;
  journal?.subscribe((record) => {
    if (events.listening) events.send(entryView(record));
  });
  const serve = adminRoutes({
    journal,
    events,
    scenarios: new ScenarioStore(options.scenarios),
    fixtures,
    log: options.log,
  });
  return {
    owns: (url) =>
      url.startsWith(controlPrefix) &&
      (url.length === controlPrefix.length || url[controlPrefix.length] === '/' || url[controlPrefix.length] === '?'),
    serve,
    record:
      journal &&
      (({ req, arrived, durationMs, body, answer }) => {
        journal.record({
          id: 0,
          time: arrived,
          method: req.method ?? 'GET',
          url: req.url ?? '/',
          status: answer.status,
          durationMs: Math.round(durationMs * 100) / 100,
          scenario: answer.scenario,
          fault: answer.fault,
          requestHeaders: redactHeaders(req.headers),
          requestBody: redactBody(body),
          answerHeaders: answer.headers,
          answerBody: keptAnswerBody(answer.body),
          answerBytes: answer.body?.length ?? 0,
          problems: answer.problems,
        });
      }),
    close() {
      fixtures?.close();
      events.close();
    },
  };
}
