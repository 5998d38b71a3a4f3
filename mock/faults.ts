import type { ServerResponse } from 'node:http';
import { setJsonHeaders, type ExtraHeaders } from './send.js';

/**
 * Network faults a client must survive: `reset` drops the connection with a TCP RST before any byte of the answer;
 * `truncate` sends the headers (with the full Content-Length) and half the body, then closes.
 */
export const faults = ['reset', 'truncate'] as const;
export type Fault = (typeof faults)[number];

export function isFault(value: string): value is Fault {
  return (faults as readonly string[]).includes(value);
}

export function deliverFault(res: ServerResponse, fault: Fault, status: number, body: Buffer, headers?: ExtraHeaders): void {
  const socket = res.socket;
  if (fault === 'reset' || !socket) {
    socket?.resetAndDestroy();
    return;
  }
  setJsonHeaders(res, status, body, headers);
  res.write(body.subarray(0, Math.floor(body.length / 2)), () => socket.destroy());
}
