import type { IncomingHttpHeaders } from 'node:http';

/** One request and what came back, whoever sent it: the contract's client or the proxy. */
export interface HttpRequest {
  method: 'GET' | 'POST';
  url: URL;
  headers: Record<string, string>;
  body?: string;
}

/**
 * Why an exchange gave no complete answer. `unreachable`: no connection could be made at all (the deployment is not
 * there); every other kind means the deployment answered badly. `undecodable`: a body in a Content-Encoding no client
 * decodes, or whose bytes do not decode as it says.
 */
export type FailureKind =
  | 'unreachable'
  | 'certificate'
  | 'timeout'
  | 'dropped'
  | 'truncated'
  | 'too-large'
  | 'undecodable'
  | 'cross-origin-redirect'
  | 'redirect-loop';

export interface Failure {
  kind: FailureKind;
  message: string;
}

/**
 * What one request got back. Whatever arrived is kept even on failure, so a partial body is still scanned for
 * secrets.
 */
export interface Exchange {
  request: HttpRequest;
  status?: number;
  /** Lower-cased names, as node parses them. */
  headers: IncomingHttpHeaders;
  body: string;
  /** Bytes of the body as judged: after its Content-Encoding is undone (the cap stops reading further). */
  bodyBytes: number;
  /** How the body's bytes decode: undefined for plain UTF-8; `body` is then decoded leniently (U+FFFD). */
  encoding?: BodyEncoding;
  /** Same-origin locations followed on the way. */
  redirects: string[];
  failure?: Failure;
}

export type BodyEncoding = 'invalid-utf8' | 'bom';

/**
 * An exchange as the judge reads it: the answer and the redirects followed on the way, never the request. Only the
 * contract's own client knows a request whole; the proxy forwards its client's, so a check that read the request would
 * be right under one and wrong under the other. What was sent, the judge reads from the `Sent` it is given.
 */
export type Received = Omit<Exchange, 'request'>;

/** A 2xx: the request was accepted. */
export function isSuccessStatus(status: number | undefined): boolean {
  return status !== undefined && status >= 200 && status < 300;
}

/** What came back for a request, however it was fetched: by the contract's client, or through the proxy. */
export type Answer = Omit<Exchange, 'request' | 'redirects'>;

/** An answer as the judge reads it (Received): only its own fields, whatever else the object carries. */
export function receivedOf(answer: Answer, redirects: string[] = []): Received {
  const { status, headers, body, bodyBytes, encoding, failure } = answer;
  return {
    redirects,
    ...(status !== undefined ? { status } : {}),
    headers,
    body,
    bodyBytes,
    ...(encoding ? { encoding } : {}),
    ...(failure ? { failure } : {}),
  };
}

/** The exchange record of a request and its answer: the one shape the contract's client makes. */
export function exchangeRecord(request: HttpRequest, answer: Answer, redirects: string[] = []): Exchange {
  return { request, ...receivedOf(answer, redirects) };
}
