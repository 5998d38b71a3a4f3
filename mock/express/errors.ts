import { STATUS_CODES } from 'node:http';
import { HttpProblem } from '../core/errors.js';

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

/** Turns an error from reading a body (body-parser, zlib) into the HttpProblem it stands for; anything unforeseen stays as it is. */
export function bodyReadProblem(error: unknown): unknown {
  const { status, statusCode, type, code: errorCode } = (error ?? {}) as Record<string, unknown>;
  const code = status ?? statusCode;
  if (!isClientError(code)) return error;
  if (typeof type === 'string' && bodyParserDetails[type]) return new HttpProblem(code, bodyParserDetails[type]);
  // zlib's codes: a body that does not inflate with the Content-Encoding it claims.
  if (typeof errorCode === 'string' && errorCode.startsWith('Z_')) return new HttpProblem(400, 'The request body does not decode with its Content-Encoding');
  return new HttpProblem(code, STATUS_CODES[code] ?? 'Bad Request');
}
