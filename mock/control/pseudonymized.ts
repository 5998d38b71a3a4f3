import { pathStart } from '../../api/match.js';
import type { Pseudonymizer } from '../../http/pseudonymizer.js';
import { cloneJson } from '../../schemas/json-object.js';
import type { JournalRecord } from './journal.js';
import { headerTexts, notKept, type JournalBody } from './redaction.js';

/**
 * A journal record with every personal value a pseudonym (http/pseudonymizer.ts: `evalkit mock --pseudonymize`),
 * made before the journal keeps it: the journal export, the event stream, the dashboard and each curl copy then show
 * the same pseudonyms, and no original is held even in memory. The URL's id, the request body by the operation's
 * schema, the answer by its response schema (a success) or swept (an error body), the query, header values and
 * problems swept. The record's own values are never changed: cached answers and request bodies may be shared.
 */
export function pseudonymizedRecord(record: JournalRecord, pseudonymizer: Pseudonymizer): JournalRecord {
  const start = Math.max(pathStart(record.url), 0);
  const queryAt = record.url.indexOf('?', start);
  const path = record.url.slice(start, queryAt < 0 ? undefined : queryAt);
  const { requestBody: kept } = record;
  const request = pseudonymizer.request({
    method: record.method,
    path,
    query: queryAt < 0 ? '' : record.url.slice(queryAt + 1),
    request: { headers: headerTexts(record.requestHeaders), body: kept?.body, body_truncated: kept?.truncated },
  });
  const requestBody: JournalBody | undefined =
    kept === undefined || !('refused' in request)
      ? kept && { ...kept, body: 'value' in request ? request.value.request.body : kept.body }
      : notKept(kept.bytes, request.refused);
  const parts = 'value' in request ? request.value : undefined;
  return {
    ...record,
    url:
      parts === undefined
        ? record.url
        : `${record.url.slice(0, start)}${parts.path}${parts.query === '' ? '' : `?${parts.query}`}`,
    requestHeaders: (parts?.request.headers as Record<string, string> | undefined) ?? record.requestHeaders,
    requestBody,
    ...answerOf(record, path, pseudonymizer),
    // pydantic 2's problems carry the input they refuse, a whole body for a missing field: every string swept.
    problems: record.problems?.map((problem) => pseudonymizer.body(undefined, cloneJson(problem)) as typeof problem),
  };
}

const decoder = new TextDecoder();
const encoder = new TextEncoder();

/** The answer's bytes rewritten: JSON when the journal kept it whole, swept as text otherwise. */
function answerOf(
  record: JournalRecord,
  path: string,
  pseudonymizer: Pseudonymizer,
): Pick<JournalRecord, 'answerBody' | 'answerBytes'> {
  const { answerBody, answerBytes } = record;
  if (answerBody === undefined) return { answerBody, answerBytes };
  const text = decoder.decode(answerBody);
  let json: unknown;
  try {
    json = answerBody.length < answerBytes ? undefined : JSON.parse(text);
  } catch {
    json = undefined;
  }
  if (json === undefined) return { answerBody: encoder.encode(pseudonymizer.sweep(text)), answerBytes };
  const answer = pseudonymizer.answer({ method: record.method, path }, record.status, json);
  // A pseudonym may take more or fewer bytes than its original (`é` against `x`): the size is the new body's.
  const body = encoder.encode('value' in answer ? JSON.stringify(answer.value) : `"<${answer.refused}>"`);
  return { answerBody: body, answerBytes: body.length };
}
