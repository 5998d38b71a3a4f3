import { STATUS_CODES } from 'node:http';
import { HttpProblem } from '../core/errors.js';
import { tooLarge, undecodable, unsupportedEncoding } from '../core/request-body.js';

function isClientError(status: unknown): status is number {
  return typeof status === 'number' && status >= 400 && status < 500;
}

/** body-parser's error types, as the problems they stand for (its own messages are terse). */
const bodyParserProblems: Record<string, HttpProblem> = {
  'entity.too.large': tooLarge,
  'encoding.unsupported': unsupportedEncoding,
  'request.aborted': new HttpProblem(400, 'The request body was not received in full'),
  'request.size.invalid': new HttpProblem(400, 'The request body is shorter or longer than its Content-Length'),
};

/**
 * Turns an error from reading a body (body-parser, zlib) into the HttpProblem it stands for; anything unforeseen stays
 * as it is.
 */
export function bodyReadProblem(error: unknown): unknown {
  const { status, statusCode, type, code: errorCode } = (error ?? {}) as Record<string, unknown>;
  const code = status ?? statusCode;
  if (!isClientError(code)) return error;
  if (typeof type === 'string' && bodyParserProblems[type]) return bodyParserProblems[type];
  // zlib's codes: a body that does not inflate with the Content-Encoding it claims.
  if (typeof errorCode === 'string' && errorCode.startsWith('Z_')) return undecodable;
  return new HttpProblem(code, STATUS_CODES[code] ?? 'Bad Request');
}
