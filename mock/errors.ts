import { STATUS_CODES } from 'node:http';
import type { ErrorRequestHandler } from 'express';
import { sendJson, serialize, type ExtraHeaders } from './send.js';

/** One entry of a FastAPI/pydantic validation error list, as the real service sends it on 422. */
export interface ValidationDetail {
  loc: Array<string | number>;
  msg: string;
  type: string;
}

export type Detail = string | ValidationDetail[];

/**
 * Any answer other than success. Handlers throw it; the error handler writes it. The body is FastAPI's
 * `{"detail": ...}`, the shape of every error the real service sends (domain notes), serialized once here.
 */
export class HttpProblem extends Error {
  readonly body: Buffer;

  constructor(
    readonly status: number,
    detail: Detail,
    readonly headers?: ExtraHeaders,
  ) {
    super(typeof detail === 'string' ? detail : `${detail.length} validation problem(s)`);
    this.body = serialize({ detail });
  }
}

function isClientError(status: unknown): status is number {
  return typeof status === 'number' && status >= 400 && status < 500;
}

/** body-parser's error types, in words that name the problem (its own messages are terse). */
const bodyParserDetails: Record<string, string> = {
  'entity.too.large': 'Request body is larger than the 1 MiB limit',
  'encoding.unsupported': 'Content-Encoding of the request body is not supported (use identity, gzip, deflate or br)',
  'request.aborted': 'The request body was not received in full',
  'request.size.invalid': 'The request body is shorter or longer than its Content-Length',
};

/** Turns an error from Express or a middleware into the HttpProblem it stands for; anything unforeseen is a 500. */
function asProblem(error: unknown): HttpProblem {
  if (error instanceof HttpProblem) return error;
  const { status, statusCode, type, code: errorCode } = (error ?? {}) as Record<string, unknown>;
  const code = status ?? statusCode;
  if (isClientError(code)) {
    if (typeof type === 'string' && bodyParserDetails[type]) return new HttpProblem(code, bodyParserDetails[type]);
    // zlib's codes: a body that does not inflate with the Content-Encoding it claims.
    if (typeof errorCode === 'string' && errorCode.startsWith('Z_')) return new HttpProblem(400, 'The request body does not decode with its Content-Encoding');
    // The router's decodeURIComponent failing on a path parameter is the only URIError Express raises.
    if (error instanceof URIError) return new HttpProblem(400, 'The request path is not valid percent-encoded UTF-8');
    return new HttpProblem(code, STATUS_CODES[code] ?? 'Bad Request');
  }
  return internalError;
}

const internalError = new HttpProblem(500, 'Internal Server Error');

/**
 * The last middleware: every error becomes a JSON answer. Only an unforeseen error is reported, by its message
 * alone, since a stack or the request could hold a body value.
 */
export function errorHandler(report: (line: string) => void): ErrorRequestHandler {
  return (error: unknown, _req, res, _next) => {
    const problem = asProblem(error);
    if (problem === internalError) report(`mock: internal error: ${error instanceof Error ? error.message : String(error)}`);
    if (res.headersSent) {
      res.destroy();
      return;
    }
    sendJson(res, problem.status, problem.body, problem.headers);
  };
}
