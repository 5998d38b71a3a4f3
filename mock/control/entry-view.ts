import type { ValidationDetail } from '../core/errors.js';
import { shellQuote } from '../../http/shell.js';
import { recordedTarget, type RecordedPart, type RecordedRequestJson } from '../../http/recorded-request.js';
import { scenarioValues } from '../core/scenarios.js';
import type { JournalRecord } from './journal.js';
import { answerBodyView, headerTexts, notKept, redactHeaders, type JournalBody } from './redaction.js';

/** Paths are shown to this length: an id is at most 1,024 characters, anything longer is cut. */
const maxShownPath = 2048;

/** Headers curl sets itself, or that describe one connection rather than the request. */
const transportHeaders = new Set(['host', 'content-length', 'connection', 'keep-alive', 'transfer-encoding']);

/** A request's or an answer's part of an entry: a recorded request's part, with its size as received. */
export interface PartView extends RecordedPart {
  body_bytes: number;
}

/**
 * A journal entry in the interface's JSON shape (docs/mock.md, "Control room"), as the dashboard reads it too: a
 * recorded request (http/recorded-request.ts, read back by `diff --traffic` and `contract --replay`) and more.
 */
export interface EntryView extends RecordedRequestJson {
  id: number;
  time: string;
  status: number;
  duration_ms: number;
  scenario: Record<string, string | number | boolean> | null;
  fault: string | null;
  request: PartView;
  response: PartView;
  problems: readonly ValidationDetail[];
  /**
   * What the mock read otherwise than as sent, e.g. `lm_providers_keys: null read as absent`, or that it answered a
   * pass-through itself because the origin did not.
   */
  notes: readonly string[];
  /** Who answered: the mock, or the `--passthrough` origin. */
  served: 'mock' | 'passthrough';
  /** The session the request named, its path shown without the session's prefix; null for the server's. */
  session: string | null;
  curl: string;
}

function bodyView(body: JournalBody | undefined): Omit<PartView, 'headers'> {
  return body
    ? { body: body.body, body_bytes: body.bytes, body_truncated: body.truncated }
    : { body: null, body_bytes: 0, body_truncated: false };
}

/**
 * A curl command that replays the request. The journal holds placeholders (`<AUTHORIZATION>`, `<PROVIDER_KEY>`) where
 * the credentials were, so the command carries them too; a cut or withheld body is left to a file the user supplies.
 * Every word the client chose is single-quoted (http/shell.ts), so pasting the command runs nothing else.
 */
function curlCommand(record: JournalRecord, target: string, headers: Record<string, string>): string {
  const host = headers.host ?? '127.0.0.1:4010';
  // A method is a token, which may hold `$`, `|` or a quote (a Fetch Request takes any): quoted unless plain letters.
  const method = /^[A-Za-z]+$/.test(record.method) ? record.method : shellQuote(record.method);
  const parts = [`curl -sS -i -X ${method}`, shellQuote(`http://${host}${target}`)];
  for (const [name, value] of Object.entries(headers)) {
    if (!transportHeaders.has(name)) parts.push('-H', shellQuote(`${name}: ${value}`));
  }
  const body = record.requestBody;
  if (body) {
    const text = body.truncated ? undefined : typeof body.body === 'string' ? body.body : JSON.stringify(body.body);
    parts.push('--data-binary', text === undefined ? '@BODY_FILE' : shellQuote(text));
  }
  return parts.join(' ');
}

/**
 * The answer body as shown: the mock's bytes, or for an answer of the `--passthrough` origin (whose body the journal
 * does not keep) its size and why it is missing; `null` only for an answer with no body.
 */
function answerView(record: JournalRecord): JournalBody | undefined {
  if (record.answerBody !== undefined) return answerBodyView(record.answerBody, record.answerBytes);
  if (record.served === 'passthrough' && record.answerBytes > 0)
    return notKept(record.answerBytes, 'passed through, not kept');
  return undefined;
}

/** A journal record in the interface's JSON shape (docs/mock.md, "Control room"), made when someone reads it. */
export function entryView(record: JournalRecord): EntryView {
  const { path: sent, query } = recordedTarget(record.url);
  const path = sent.slice(0, maxShownPath);
  const requestHeaders = headerTexts(record.requestHeaders);
  return {
    id: record.id,
    time: new Date(record.time).toISOString(),
    method: record.method,
    path,
    query,
    status: record.status,
    duration_ms: record.durationMs,
    scenario: record.scenario ? scenarioValues(record.scenario) : null,
    fault: record.fault ?? null,
    request: { headers: requestHeaders, ...bodyView(record.requestBody) },
    // The mock's own headers hold no credential; redacting them too keeps the rule true of every header shown.
    response: {
      headers: headerTexts(redactHeaders(record.answerHeaders)),
      ...bodyView(answerView(record)),
    },
    problems: record.problems ?? [],
    notes: record.notes ?? [],
    served: record.served,
    session: record.session ?? null,
    curl: curlCommand(record, query === '' ? path : `${path}?${query}`, requestHeaders),
  };
}
