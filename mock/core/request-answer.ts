import type { HttpProblem, ValidationDetail } from './errors.js';
import type { Fault } from './faults.js';
import type { ResolvedScenario } from './scenarios.js';
import type { ExtraHeaders } from './serialize.js';

/** Request header values by lower-case name, as node:http gives them (and a Fetch Headers object spreads into). */
export type RequestHeaders = Readonly<Record<string, string | string[] | undefined>>;

/**
 * A request's body: its bytes, or a function that reads them. A function is called only once the core knows the
 * operation takes a body and its Content-Type is JSON, so an adapter never reads an upload the answer ignores. It may
 * throw (or reject with) an HttpProblem, e.g. the 413 of a body over the limit.
 */
export type BodySource = Uint8Array | (() => Uint8Array | Promise<Uint8Array>);

/** What the core answers: plain data, framework-free. */
export interface MockRequest {
  method: string;
  /** The path and query as sent, e.g. `/api/evaluations?x=1` (an absolute URL works too). */
  url: string;
  headers: RequestHeaders;
  body?: BodySource;
}

export interface MockAnswer {
  status: number;
  /** Content-Length is the adapter's to set, from the body it writes. */
  headers: Record<string, string>;
  /** Absent for 204 answers. */
  body?: Uint8Array;
  /** Deliver the answer broken this way (a scenario asked for it). */
  fault?: Fault;
  /** The scenario the answer follows (server's and Prefer's merged), when the request got that far: for the journal. */
  scenario?: ResolvedScenario;
  /** The 422's validation problems, as in its body: for the journal, which would otherwise parse the body again. */
  problems?: readonly ValidationDetail[];
  /** A problem's sentence, as in its body's `detail`: for the request log, which would otherwise parse the body. */
  detail?: string;
  /**
   * What the mock read otherwise than as sent, for the journal (`lm_providers_keys: null read as absent`): notes, not
   * errors. Never a value of the request.
   */
  notes?: readonly string[];
  /** The session the request named (mock/core/sessions.ts), for the journal's view of each session. */
  session?: string;
}

/** A JSON answer: the headers gathered so far (CORS, Preference-Applied), the media type, then the answer's own. */
export function jsonAnswer(
  status: number,
  body: Uint8Array,
  headers: Record<string, string>,
  extra?: ExtraHeaders,
  fault?: Fault,
): MockAnswer {
  headers['Content-Type'] = 'application/json';
  if (extra) Object.assign(headers, extra);
  const answer: MockAnswer = { status, headers, body };
  if (fault) answer.fault = fault;
  return answer;
}

/**
 * The answer of an HttpProblem: its status, FastAPI body and own headers, with its problems (for the journal) or its
 * sentence (for the request log) as data.
 */
export function problemAnswer(problem: HttpProblem, headers: Record<string, string>): MockAnswer {
  const answer = jsonAnswer(problem.status, problem.body, headers, problem.headers);
  if (problem.problems) answer.problems = problem.problems;
  else answer.detail = problem.message;
  return answer;
}

/** The first value of a header (node:http gives arrays for a few repeated ones). */
export function headerValue(headers: RequestHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}

/** Whether a request says a body comes: a Transfer-Encoding, or a Content-Length over 0. */
export function announcesBody(request: MockRequest): boolean {
  return (
    request.headers['transfer-encoding'] !== undefined ||
    Number(headerValue(request.headers, 'content-length') ?? 0) > 0
  );
}

/**
 * The answer with the notes its operation gathered while answering (filled by then, a latency or not), for the
 * journal; none when there are none.
 */
export function withNotes(
  answered: MockAnswer | Promise<MockAnswer>,
  notes: readonly string[],
): MockAnswer | Promise<MockAnswer> {
  const noted = (answer: MockAnswer) => {
    if (notes.length > 0) answer.notes = notes;
    return answer;
  };
  return answered instanceof Promise ? answered.then(noted) : noted(answered);
}
