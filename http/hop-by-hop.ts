/**
 * RFC 9110 §7.6.1: headers of one connection, which a proxy never forwards in either direction, plus Host (the
 * proxy sets the target's) and Expect (the proxy answers `100-continue` itself).
 */
const hopByHop = new Set([
  'connection',
  'keep-alive',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'host',
  'expect',
]);

/**
 * Headers by which a client claims where a request was meant to go or came from. A server behind the proxy may route
 * or build links by them (X-Original-URL, X-Rewrite-URL, X-Forwarded-Host): only the proxy could vouch for them, and
 * it does not, so a client's are dropped.
 */
const routingClaims = new Set(['forwarded', 'x-forwarded-host', 'x-original-url', 'x-rewrite-url', 'x-original-host']);

function isHopByHop(name: string, named: ReadonlySet<string>): boolean {
  return hopByHop.has(name) || name.startsWith('proxy-') || named.has(name);
}

/** The names a Connection header lists, lower-cased: each is a header of this connection only. */
function connectionNamed(connection: string | string[] | undefined): Set<string> {
  return new Set(
    ([] as string[])
      .concat(connection ?? [])
      .join(',')
      .split(',')
      .map((name) => name.trim().toLowerCase())
      .filter(Boolean),
  );
}

/**
 * A raw header list (`rawHeaders`: name, value, name, value…) without its hop-by-hop headers, `Proxy-*` ones and
 * those its Connection header names; for a request, without routing claims either.
 */
export function endToEnd(raw: readonly string[], direction: 'request' | 'answer'): string[] {
  const connection: string[] = [];
  for (let index = 0; index + 1 < raw.length; index += 2)
    if ((raw[index] as string).toLowerCase() === 'connection') connection.push(raw[index + 1] as string);
  const named = connectionNamed(connection);
  const kept: string[] = [];
  for (let index = 0; index + 1 < raw.length; index += 2) {
    const name = (raw[index] as string).toLowerCase();
    if (isHopByHop(name, named) || (direction === 'request' && routingClaims.has(name))) continue;
    kept.push(raw[index] as string, raw[index + 1] as string);
  }
  return kept;
}
