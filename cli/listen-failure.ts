/**
 * Why a server could not listen, with the fix, for the failures its address causes (keyed by code); the text of a
 * lookup failure (`getaddrinfo ENOTFOUND`) is Node's, not a sentence.
 */
const reasons: Record<string, (port: number) => string> = {
  EADDRINUSE: () => ' (EADDRINUSE): the port is in use; pass another --port, or --port 0 for a free one',
  EACCES: (port) => ` (EACCES): port ${port} needs privileges; pass --port 1024 or above, or --port 0 for a free one`,
  EADDRNOTAVAIL: () =>
    ' (EADDRNOTAVAIL): not an address of this machine; pass one of its addresses, e.g. --host 127.0.0.1',
  ENOTFOUND: () =>
    ': no address found for the host name; pass an address of this machine, e.g. --host 127.0.0.1 or --host 0.0.0.0',
  EAI_AGAIN: () =>
    ': the host name could not be looked up (DNS); pass an address of this machine, e.g. --host 127.0.0.1',
};

/**
 * `cannot listen on HOST:PORT (CODE): the reason; the fix` when listening failed for the address's sake; undefined
 * for any other error.
 */
export function listenFailure(error: unknown, host: string, port: number): string | undefined {
  const { code, syscall } = (error ?? {}) as NodeJS.ErrnoException;
  // Only the listen itself and the lookup of its host: the same codes from a file (EACCES) are another cause.
  if (syscall !== 'listen' && syscall !== 'getaddrinfo') return undefined;
  const reason = code === undefined ? undefined : reasons[code];
  return reason && `cannot listen on ${host}:${port}${reason(port)}`;
}
