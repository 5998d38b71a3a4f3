/**
 * Network faults a client must survive: `reset` drops the connection with a TCP RST before any byte of the answer;
 * `truncate` sends the headers (with the full Content-Length) and half the body, then closes. The core names the
 * fault in its answer; each adapter delivers it as its transport can.
 */
export const faults = ['reset', 'truncate'] as const;
export type Fault = (typeof faults)[number];

export function isFault(value: string): value is Fault {
  return (faults as readonly string[]).includes(value);
}
