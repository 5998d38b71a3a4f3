import { operationByKey, operationOfKey, operationTable } from '../api/operations.js';
import type { ResourceName } from '../schemas/index.js';
import { formatIssue, validate } from '../schemas/validators/index.js';
import { decodeBody } from '../http/body-decoding.js';
import { replayHeaders } from '../http/credentials.js';
import type { Content } from '../http/decoded-body.js';
import { isJsonMediaType, mediaType } from '../http/media-type.js';
import type { Cause } from '../contract/judge/define.js';
import { invalidRequestCause } from '../contract/judge/finding-id.js';
import type { Fields } from '../contract/judge/observation.js';
import { labelOf, type Outgoing, type Role, type Sent } from '../contract/judge/sent.js';
import type { Passage } from './forward.js';
import { fetchedId, type Route } from './operations.js';

/** A proxied request names ids nobody vouched for: a 4xx for them is the client's business, not a finding. */
const passiveTraffic = { what: 'a proxied request', remedy: 'the proxy judges only the answers that succeed' };

/** What stands for a create body that could not be read: its bytes may hold keys nobody can find, so none is shown. */
function unreadablePlaceholder(bytes: number): string {
  return `<UNREADABLE BODY: ${bytes} bytes, kept out of every output>`;
}

/**
 * A create request's body as the target reads it: its content (its Content-Encoding undone within the cap), UTF-8
 * with or without a byte order mark, then JSON. Resolves to the text and value, or to why it cannot be read.
 */
function readCreateBody(content: Content): { text: string; request: unknown } | { unreadable: string; text?: string } {
  if ('problem' in content) return { unreadable: content.problem.message };
  const { body, encoding } = decodeBody(content.bytes);
  if (encoding === 'invalid-utf8') return { unreadable: 'the body is not UTF-8', text: body };
  const text = encoding === 'bom' ? body.slice(1) : body;
  try {
    return { text, request: JSON.parse(text) };
  } catch {
    return { unreadable: 'the body is not JSON', text };
  }
}

/** A create request's body as the judge reads it: its text and value, or why it could not be read, or none at all. */
type CreateBody = { text: string; request: unknown } | { unreadable: string; bytes: number; text: string } | undefined;

/** Why a proxied request's body is invalid for its operation (the resource the table names), or undefined. */
function invalidity(passage: Passage, body: CreateBody, resource: ResourceName): string | undefined {
  if (!isJsonMediaType(mediaType(passage.requestHeaders)))
    return `Content-Type ${passage.requestHeaders['content-type'] ?? '(none)'}`;
  if (body === undefined) return 'a missing body';
  if ('unreadable' in body) return `a body that cannot be read: ${body.unreadable}`;
  return validate(resource, body.request).issues.map(formatIssue).join(', ') || undefined;
}

/** Why a proxied request is invalid, as the contract's probe breaking the same rule says it (invalidRequestCause). */
function invalidCause(passage: Passage, body: CreateBody, resource: ResourceName): Cause {
  const read = body === undefined ? undefined : 'unreadable' in body ? 'unreadable' : body;
  return invalidRequestCause(isJsonMediaType(mediaType(passage.requestHeaders)), read, resource);
}

/** A request body read as the operation's body (readCreateBody), or undefined when it takes none or none was kept. */
export function requestBodyOf(passage: Passage, route: Route): CreateBody {
  if (!operationByKey(route.operation).request || passage.requestBody === undefined) return undefined;
  const { sent, content } = passage.requestBody;
  const read = readCreateBody(content);
  return 'unreadable' in read ? { ...read, bytes: sent.length, text: read.text ?? sent.toString('utf8') } : read;
}

/** What the client sent, and what it was for: over the cap, only what every answer must satisfy is judged. */
export function sentOf(passage: Passage, route: Route, body: CreateBody): Sent {
  const { operation } = route;
  const shown = body === undefined ? undefined : 'unreadable' in body ? unreadablePlaceholder(body.bytes) : body.text;
  const outgoing: Outgoing = {
    method: operationTable[operationOfKey(operation)].method,
    path: passage.path,
    headers: replayHeaders(passage.requestHeaders),
    ...(shown !== undefined ? { body: shown, contentType: passage.requestHeaders['content-type'] } : {}),
  };
  if (passage.overCap) return { operation, outgoing, role: { kind: 'repeat' } };
  const resource = operationByKey(operation).request;
  if (!resource)
    return { operation, outgoing, role: { kind: 'expected', id: fetchedId(route), unvouched: passiveTraffic } };
  const problem = invalidity(passage, body, resource);
  const accepted = (status: number) =>
    `${labelOf(outgoing)}: an invalid create request (${problem}) was accepted with ${status}`;
  const role: Role = problem
    ? { kind: 'invalid', accepted, cause: invalidCause(passage, body, resource) }
    : { kind: 'expected', request: (body as { request: Fields }).request, unvouched: passiveTraffic };
  return { operation, outgoing, role };
}
