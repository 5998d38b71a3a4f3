import { serialize, type ExtraHeaders } from './serialize.js';

/**
 * One entry of a FastAPI/pydantic validation error list, as the real service sends it on 422: pydantic 1's
 * `{loc, msg, type[, ctx]}` or pydantic 2's `{type, loc, msg, input[, ctx], url}` (pydantic-words.ts).
 */
export interface ValidationDetail {
  loc: Array<string | number>;
  msg: string;
  type: string;
  input?: unknown;
  ctx?: Record<string, unknown>;
  url?: string;
}

export type Detail = string | ValidationDetail[];

/**
 * Any answer other than success. The core's steps throw it; the core turns it into an answer. The body is FastAPI's
 * `{"detail": ...}`, the shape of every error the real service sends (domain notes), serialized once here.
 */
export class HttpProblem extends Error {
  readonly body: Uint8Array;
  /** The validation problems of a list detail (a 422), kept as data for the control room's journal. */
  readonly problems?: readonly ValidationDetail[];

  constructor(
    readonly status: number,
    detail: Detail,
    readonly headers?: ExtraHeaders,
  ) {
    // An answer, not a fault: no stack is captured, which cost more than the rest of a 422 (the mock answers
    // thousands of invalid requests in a property run, each built under a deep stack).
    const stackTraceLimit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    super(typeof detail === 'string' ? detail : `${detail.length} validation problem(s)`);
    Error.stackTraceLimit = stackTraceLimit;
    this.body = serialize({ detail });
    if (typeof detail !== 'string') this.problems = detail;
  }
}

export const internalError = new HttpProblem(500, 'Internal Server Error');
