import type { ServerResponse } from 'node:http';
import type { MockAnswer } from '../core/request-answer.js';

function writeHead(res: ServerResponse, answer: MockAnswer): void {
  res.statusCode = answer.status;
  for (const name in answer.headers) res.setHeader(name, answer.headers[name] as string);
  if (answer.body) res.setHeader('Content-Length', answer.body.length);
}

/**
 * `reset`: a TCP RST before any byte; `truncate`: the headers with the full Content-Length and half the body, then a
 * close.
 */
function deliverFault(res: ServerResponse, answer: MockAnswer): void {
  const socket = res.socket;
  if (answer.fault === 'reset' || !socket || !answer.body) {
    socket?.resetAndDestroy();
    return;
  }
  writeHead(res, answer);
  res.write(answer.body.subarray(0, Math.floor(answer.body.length / 2)), () => socket.destroy());
}

/**
 * Writes an answer of the core. It skips res.send (type sniffing, ETag hashing, freshness checks), which is most of
 * what Express adds to a route: bodies here are cached or pre-serialized, so hashing them again on every request
 * would be the mock's largest cost.
 */
export function deliver(res: ServerResponse, answer: MockAnswer): void {
  // The client may have given up while the mock was waiting (latency).
  if (res.destroyed) return;
  if (answer.fault) return deliverFault(res, answer);
  writeHead(res, answer);
  res.end(answer.body);
}
