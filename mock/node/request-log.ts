import type { ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';
import { escapeControlCharacters } from '../../http/redaction.js';
import type { MockAnswer } from '../core/request-answer.js';
import { formatScenario } from '../core/scenarios.js';

/** Long paths (very long ids) are cut so one request cannot flood the log. */
const maxLoggedPath = 200;
/** A problem's detail is cut to this length: the line says why, the answer says it all. */
const maxLoggedReason = 100;

/**
 * Who answers a response, told before it is delivered so the line written at its close can say why: the mock (its
 * answer: the core's or the control room's), or the pass-through origin (named rather than a reason). One record per
 * response, kept only as long as the response is.
 */
type Answered = { by: 'mock'; answer: MockAnswer } | { by: 'origin'; origin: string };
const answered = new WeakMap<ServerResponse, Answered>();

/** Tells the log which answer of the mock's a response delivers. */
export function logAnswer(res: ServerResponse, answer: MockAnswer): void {
  answered.set(res, { by: 'mock', answer });
}

/** Tells the log a response is the passthrough origin's answer, not the mock's. */
export function logPassthrough(res: ServerResponse, origin: string): void {
  answered.set(res, { by: 'origin', origin });
}

/**
 * Why an answer is not a plain 200: the scenario that asked for its status or fault (the Prefer header's keys, as
 * Preference-Applied names them, or else the run-time scenario's), the count of a 422's problems, or a problem's
 * detail. Undefined for a plain answer.
 */
function reasonOf(answer: MockAnswer): string | undefined {
  const scenario = answer.scenario;
  const asked =
    scenario && formatScenario({ code: scenario.code === 200 ? undefined : scenario.code, fault: scenario.fault });
  if (asked) {
    const preferred = answer.headers['Preference-Applied'] ?? '';
    const fromPrefer = asked.split(', ').every((entry) => preferred.split(', ').includes(entry));
    return `${fromPrefer ? 'Prefer' : 'scenario'}: ${asked}`;
  }
  if (answer.problems) return `${answer.problems.length} problem${answer.problems.length === 1 ? '' : 's'}`;
  if (answer.status < 400 || answer.detail === undefined) return undefined;
  return escapeControlCharacters(loggedDetail(answer.detail));
}

/** The "did you mean" of a refusal: what a person looks for first in the log. */
const suggestion = /did you mean [^?]{1,120}\?/;

/**
 * A refusal's detail cut to its first characters, its suggestion kept: a long list of accepted values before it
 * (`(keys: code, state, …)`) must not cut off the one word the person meant.
 */
function loggedDetail(detail: string): string {
  if (detail.length <= maxLoggedReason) return detail;
  const cut = detail.slice(0, maxLoggedReason);
  const meant = suggestion.exec(detail)?.[0];
  // The mark tells a cut reason from a whole one, so a list cut short is not read as all there is.
  return meant === undefined || cut.includes(meant) ? `${cut}…` : `${cut}… ${meant}`;
}

/**
 * One line per request once its connection is done with it: method, path, status, milliseconds, and why when the
 * answer is not a plain one (`(Prefer: code=503)`, `(3 problems)`, a 415's detail). Never a query string, a header
 * value or a body of the request, so nothing a client sends beyond the path and the scenario keys the mock applied
 * can reach the log.
 */
export function requestLog(write: (line: string) => void): RequestHandler {
  return (req, res, next) => {
    const start = performance.now();
    res.once('close', () => {
      const path = (req.originalUrl.split('?')[0] ?? '').slice(0, maxLoggedPath);
      const status = res.writableFinished
        ? String(res.statusCode)
        : `${res.headersSent ? res.statusCode : '-'} (connection closed early)`;
      const told = answered.get(res);
      const reason = told?.by === 'origin' ? `passthrough ${told.origin}` : told && reasonOf(told.answer);
      write(
        `${req.method} ${path} ${status} ${(performance.now() - start).toFixed(1)}ms${reason ? ` (${reason})` : ''}`,
      );
    });
    next();
  };
}
