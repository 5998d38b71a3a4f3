/**
 * The amplification attack of issue 10: a create request of `bytes` bytes whose variant_ids holds as many numbers as
 * fit (about 500k in 1 MiB), each one a schema problem to a validator that reports every error.
 */
export function amplificationBody(request: Record<string, unknown>, bytes: number): string {
  const shell = JSON.stringify({ ...request, variant_ids: ['@'] });
  const items = Math.floor((bytes - shell.length) / 2);
  return shell.replace('"@"', `0${',0'.repeat(items - 1)}`);
}
