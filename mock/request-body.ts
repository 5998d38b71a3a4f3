import express, { type RequestHandler } from 'express';
import { HttpProblem } from './errors.js';
import { maxBodyBytes, maxBodyDepth } from './limits.js';

const unsupportedType = new HttpProblem(415, 'Content-Type must be application/json');
const unsupportedCharset = new HttpProblem(415, 'The request body must be UTF-8 (Content-Type charset=utf-8 or none)');
const notUtf8 = new HttpProblem(400, 'The request body is not valid UTF-8');
const tooDeep = new HttpProblem(400, `The request body nests deeper than ${maxBodyDepth} levels`);
// FastAPI's answer to a JSON route called without a body.
const missingBody = new HttpProblem(422, [{ loc: ['body'], msg: 'field required', type: 'value_error.missing' }]);

/**
 * Keys that reach Object.prototype when code copies a parsed body with assignments. JSON.parse itself makes them
 * plain own properties, but nothing downstream should have to be careful: they are refused at the door.
 */
const forbiddenKeys = new Set(['__proto__', 'constructor', 'prototype']);

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** 415 unless the request says JSON in UTF-8; checked before reading the body, so a wrong type costs no upload. */
const requireJson: RequestHandler = (req, _res, next) => {
  const hasBody = req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;
  if (!hasBody && req.headers['content-type'] === undefined) return next();
  if (!req.is(['application/json', '+json'])) throw unsupportedType;
  const charset = /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(req.headers['content-type'] ?? '')?.[1];
  if (charset !== undefined && charset.toLowerCase() !== 'utf-8' && charset.toLowerCase() !== 'utf8') throw unsupportedCharset;
  next();
};

/** The first forbidden key or over-deep value, walked without recursion so no input can exhaust the stack. */
function structureProblem(root: unknown): HttpProblem | undefined {
  const stack: Array<{ value: unknown; depth: number; pointer: string }> = [{ value: root, depth: 0, pointer: '' }];
  while (stack.length > 0) {
    const { value, depth, pointer } = stack.pop() as { value: unknown; depth: number; pointer: string };
    if (value === null || typeof value !== 'object') continue;
    if (depth >= maxBodyDepth) return tooDeep;
    for (const key of Object.keys(value)) {
      if (forbiddenKeys.has(key)) return new HttpProblem(400, `The request body has a forbidden key '${key}' at ${(pointer || '/').slice(0, 200)}`);
      stack.push({ value: (value as Record<string, unknown>)[key], depth: depth + 1, pointer: `${pointer}/${key}` });
    }
  }
  return undefined;
}

function parse(raw: Buffer): unknown {
  let text: string;
  try {
    text = utf8.decode(raw);
  } catch {
    throw notUtf8;
  }
  if (text.trim() === '') throw missingBody;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (error) {
    // V8's message quotes the input, which may hold a credential: only the position goes back.
    const position = /at position (\d+)/.exec((error as Error).message)?.[1];
    throw new HttpProblem(400, `The request body is not valid JSON${position ? ` (at position ${position})` : ''}`);
  }
  const problem = structureProblem(body);
  if (problem) throw problem;
  return body;
}

const parseJson: RequestHandler = (req, _res, next) => {
  req.body = parse(Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0));
  next();
};

/**
 * The body of a JSON operation: 415 for another media type or charset, 413 over 1 MiB (body-parser, which also
 * inflates gzip within the same limit), 400 for bytes that are not UTF-8 or text that is not JSON, 400 for forbidden
 * keys or over-deep nesting, 422 for no body at all.
 */
export const jsonBody: RequestHandler[] = [requireJson, express.raw({ type: () => true, limit: maxBodyBytes }), parseJson];
