import { pathOf } from '../../api/match.js';
import type { MockCore } from '../core/handle.js';
import type { AnsweredRequest } from '../core/observe.js';
import {
  headerValue,
  problemAnswer,
  type MockAnswer,
  type MockRequest,
  type RequestHeaders,
} from '../core/request-answer.js';
import type { ScenarioHolder } from '../core/scenario-book.js';
import { withoutSessionPrefix, type Sessions } from '../core/sessions.js';
import { MockSetupError } from '../core/setup-error.js';
import { adminRoutes, type EventSink, type FixtureStatus } from './admin-routes.js';
import { hostCheck, type AllowedHosts } from './allowed-hosts.js';
import { controlHeaders, crossSiteProblem } from './cross-site.js';
import { eventsPath, isControlRoomUrl } from './prefix.js';
import { entryView } from './entry-view.js';
import { defaultJournalSize, Journal, maxJournalSize, type JournalRecord } from './journal.js';
import { pseudonymizedRecord } from './pseudonymized.js';
import type { Pseudonymizer } from '../../http/pseudonymizer.js';
import { redactUrl } from '../../http/placeholders.js';
import { headerTexts, keptAnswerBody, notKept, redactBody, redactHeaders } from './redaction.js';
import { ScenarioStore } from './scenario-store.js';

export interface ControlRoomOptions {
  /** The core whose answers the journal keeps. */
  core: MockCore;
  /** The core's scenario holder, swapped by `PUT /__evalkit/scenario`. */
  scenarios: ScenarioHolder;
  /** The core's sessions, each scenario set by `PUT /__evalkit/sessions/NAME/scenario`. */
  sessions: Sessions;
  /** Requests kept; 0 turns the journal off. Default 500. */
  journalSize?: number;
  /** Where events go (journal entries, `cleared`, `scenario`): the Node server's event stream; none when absent. */
  events?: EventSink;
  /** The fixtures folder's state, when the adapter serves one (`--fixtures DIR`). */
  fixtures?: () => FixtureStatus;
  log: (line: string) => void;
  /**
   * Host names answered besides loopback ones (`--allowed-hosts`). Absent, Host is not checked: for an adapter whose
   * requests never come from a network (MSW answers its own page's or process's requests only).
   */
  allowedHosts?: AllowedHosts;
  /**
   * Keep every journal entry with pseudonyms for its personal values (`--pseudonymize`): the export, the events and
   * the dashboard show no original, and the journal holds none.
   */
  pseudonymizer?: Pseudonymizer;
}

export interface ControlRoomHandle {
  /** Whether a request is the control room's (anything under /__evalkit, on any origin), not the API's. */
  owns(url: string): boolean;
  /**
   * Whether a request asks for the event stream and may have it, which only an adapter that can stream answers;
   * `serve` answers a refused one.
   */
  wantsEvents(request: MockRequest): boolean;
  /** Answers a request of the control room, or refuses it (a Host not allowed, another site's page). */
  serve(request: MockRequest): Promise<MockAnswer>;
  /**
   * Keeps a request the adapter passed through to `--passthrough`'s origin, its credentials redacted; no body the
   * client or the origin sent is kept, since they are another API's and the journal cannot know where its credentials
   * sit. The mock's own answer in the origin's stead (a 502, ...) is kept: it is the mock's, and says why.
   */
  passedThrough(exchange: PassedThroughExchange): void;
  /** Stops keeping the core's answers. */
  close(): void;
}

function journalOf(size: number | undefined): Journal | undefined {
  const capacity = size ?? defaultJournalSize;
  if (!Number.isInteger(capacity) || capacity < 0 || capacity > maxJournalSize) {
    throw new MockSetupError(`journal size must be an integer from 0 (off) to ${maxJournalSize}, got ${String(size)}`);
  }
  return capacity === 0 ? undefined : new Journal(capacity);
}

/** A request passed through to another origin, as the adapter saw it. */
interface PassedThroughExchange {
  request: MockRequest;
  status: number;
  answerHeaders: RequestHeaders;
  requestBytes: number;
  answerBytes: number;
  arrived: number;
  durationMs: number;
  /** The mock's own answer when the origin gave none (unreachable, silent, a loop). */
  own?: MockAnswer;
}

function passedThroughRecord(exchange: PassedThroughExchange): JournalRecord {
  const { request, requestBytes, own } = exchange;
  return {
    id: 0,
    time: exchange.arrived,
    method: request.method,
    url: redactUrl(request.url),
    status: exchange.status,
    durationMs: Math.round(exchange.durationMs * 100) / 100,
    scenario: undefined,
    fault: undefined,
    requestHeaders: redactHeaders(request.headers),
    requestBody: requestBytes === 0 ? undefined : notKept(requestBytes, 'passed through, not kept'),
    answerHeaders: own ? own.headers : headerTexts(redactHeaders(exchange.answerHeaders)),
    answerBody: keptAnswerBody(own?.body),
    answerBytes: own ? (own.body?.length ?? 0) : exchange.answerBytes,
    problems: undefined,
    // Without it the row reads as the origin's answer: the status is the mock's, the origin never answered.
    notes: own && [`the passthrough origin did not answer: this ${own.status} is the mock's own, its body says why`],
    served: 'passthrough',
  };
}

/** An answered request as the journal keeps it, its credentials redacted first. */
function answeredRecord({ request, body, answer, arrived, durationMs }: AnsweredRequest): JournalRecord {
  return {
    id: 0,
    time: arrived,
    method: request.method,
    url: redactUrl(answer.session === undefined ? request.url : withoutSessionPrefix(request.url)),
    status: answer.status,
    durationMs: Math.round(durationMs * 100) / 100,
    scenario: answer.scenario,
    fault: answer.fault,
    requestHeaders: redactHeaders(request.headers),
    requestBody: redactBody(body, headerValue(request.headers, 'content-type')),
    answerHeaders: answer.headers,
    answerBody: keptAnswerBody(answer.body),
    answerBytes: answer.body?.length ?? 0,
    problems: answer.problems,
    notes: answer.notes,
    served: 'mock',
    ...(answer.session !== undefined && { session: answer.session }),
  };
}

/**
 * The control room (docs/mock.md, "Control room"): a journal of the core's requests with their credentials redacted,
 * the server scenario at run time, a dashboard, and the fixtures folder's state. It works on the core's requests and
 * answers alone, so it runs wherever the core does; the event stream and the fixtures watcher are the Node server's.
 */
export function controlRoom(options: ControlRoomOptions): ControlRoomHandle {
  const journal = journalOf(options.journalSize);
  const events = options.events;
  const { pseudonymizer } = options;
  const keep = (record: JournalRecord) =>
    journal?.record(pseudonymizer === undefined ? record : pseudonymizedRecord(record, pseudonymizer));
  if (journal && events)
    journal.subscribe((entry) => {
      if (events.listening) events.send(entryView(entry));
    });
  const stop = journal ? options.core.observe((answered) => keep(answeredRecord(answered))) : undefined;
  const routes = adminRoutes({
    journal,
    events,
    scenarios: new ScenarioStore(options.scenarios),
    sessions: options.sessions,
    fixtures: options.fixtures,
    log: options.log,
  });
  const checkHost = options.allowedHosts === undefined ? undefined : hostCheck(options.allowedHosts);
  const refusal = (request: MockRequest) => checkHost?.(request) ?? crossSiteProblem(request);
  return {
    owns: isControlRoomUrl,
    wantsEvents: (request) =>
      request.method === 'GET' && pathOf(request.url) === eventsPath && refusal(request) === undefined,
    async serve(request) {
      const problem = refusal(request);
      const answer = problem ? problemAnswer(problem, {}) : await routes(request);
      return { ...answer, headers: { ...controlHeaders, ...answer.headers } };
    },
    passedThrough: (exchange) => {
      if (journal) keep(passedThroughRecord(exchange));
    },
    close: () => stop?.(),
  };
}
