import type { IncomingMessage } from 'node:http';

/**
 * A dot segment or a backslash in a path, in clear or percent-encoded (once or twice): a server may resolve `/api/..`
 * or `\` (which URL parsers read as `/`) to a path outside the target's base path.
 */
const dotSegment = /(?:^|[/\\]|%(?:25)*(?:2f|5c))(?:\.|%(?:25)*2e){1,2}(?=$|[/\\?#]|%(?:25)*(?:2f|5c))/i;
const backslash = /\\|%(?:25)*5c/i;

function pathPart(requestTarget: string): string {
  return requestTarget.split(/[?#]/, 1)[0] as string;
}

/**
 * Why the proxy will not forward a request node's own parser let through, or undefined. Node already refuses
 * Content-Length with Transfer-Encoding, two Content-Lengths and a Transfer-Encoding that does not end in `chunked`
 * (the clientError answer); what it lets through and a server behind may read otherwise is refused here: a request
 * target that is no path (absolute-form names another origin, `*` none), a path that may leave the base path, a
 * coding stacked under `chunked`, Transfer-Encoding in HTTP/1.0, and two Host headers.
 */
export function refusalOf(req: IncomingMessage, forwardsTo: string): string | undefined {
  const target = req.url ?? '';
  if (!target.startsWith('/'))
    return (
      `this proxy forwards only to ${forwardsTo}; the request target must be a path starting with /, ` +
      `got ${JSON.stringify(target.slice(0, 100))}`
    );
  const path = pathPart(target);
  if (backslash.test(path)) return 'the request path holds a backslash, which servers read as / or as itself';
  if (dotSegment.test(path))
    return `the request path holds a dot segment (. or .., maybe encoded): it may resolve outside ${forwardsTo}`;
  const coding = req.headers['transfer-encoding'];
  if (coding !== undefined) {
    if (req.httpVersion === '1.0') return 'Transfer-Encoding in an HTTP/1.0 request: its framing is ambiguous';
    if (coding.trim().toLowerCase() !== 'chunked')
      return `Transfer-Encoding ${JSON.stringify(coding)}: only chunked is forwarded, its framing is ambiguous`;
  }
  let hosts = 0;
  for (let index = 0; index < req.rawHeaders.length; index += 2)
    if ((req.rawHeaders[index] as string).toLowerCase() === 'host') hosts++;
  if (hosts > 1) return `${hosts} Host headers: a request names one host`;
  return undefined;
}

/** node's parser errors, as the status and words a client is told (its `reason` names the problem). */
export function parseRefusal(error: Error & { code?: string; reason?: string }): { status: string; detail: string } {
  const reason = error.reason ?? error.code ?? 'malformed';
  return error.code === 'HPE_HEADER_OVERFLOW'
    ? { status: '431 Request Header Fields Too Large', detail: 'the request headers are too large' }
    : { status: '400 Bad Request', detail: `the request is not valid HTTP (${reason})` };
}
