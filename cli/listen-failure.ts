/** Codes a server's listen() fails with when the address, not the program, is at fault. */
const addressCodes = new Set(['EADDRINUSE', 'EACCES', 'EADDRNOTAVAIL']);

/**
 * `cannot listen on HOST:PORT (EADDRINUSE)` when listening failed for the address's sake; undefined for any other
 * error.
 */
export function listenFailure(error: unknown, host: string, port: number): string | undefined {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code !== undefined && addressCodes.has(code) ? `cannot listen on ${host}:${port} (${code})` : undefined;
}
