/**
 * How long the contract client and the proxy wait for a byte unless told otherwise, and the most `--timeout` takes:
 * apart from the client, so a command's `--help` names them without loading it.
 */
export const defaultTimeoutMs = 10_000;
export const maxTimeoutMs = 600_000;
