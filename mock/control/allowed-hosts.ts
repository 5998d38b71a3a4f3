import { HttpProblem } from '../core/errors.js';
import { headerValue, type MockRequest } from '../core/request-answer.js';
import { MockSetupError } from '../core/setup-error.js';

/**
 * Host names the control room answers besides this machine's loopback names: any (`true`, which gives up the DNS
 * rebinding defence) or a list, where `.example.test` stands for that domain and every name under it.
 */
export type AllowedHosts = true | readonly string[];

/** `host[:port]` as a browser sends it: a name or IPv4 address, or an IPv6 address in brackets; nothing else. */
const hostSyntax = /^(?:\[[0-9a-f:.]+\]|[^\s[\]/\\@?#:%]+)(?::\d{1,5})?$/i;
/** Host values are echoed in the refusal: this much of one is enough to recognise it. */
const shownHostChars = 100;

/**
 * The name of a Host value as a browser's URL holds it: lower case, IPv4 in dotted decimal, IPv6 compressed in
 * brackets, no trailing dot. Undefined when the value is not `host[:port]` (userinfo, a path, spaces...).
 */
function hostName(host: string): string | undefined {
  if (!hostSyntax.test(host)) return undefined;
  try {
    return new URL(`http://${host}`).hostname.replace(/\.$/, '');
  } catch {
    return undefined;
  }
}

/** A bare IPv6 address (`::1`, as `--host` takes it) in the brackets a Host value has; anything else as it is. */
function asHostValue(text: string): string {
  return !text.startsWith('[') && text.indexOf(':') !== text.lastIndexOf(':') ? `[${text}]` : text;
}

function isLoopbackName(name: string): boolean {
  return (
    name === 'localhost' ||
    name.endsWith('.localhost') ||
    /^127\.\d+\.\d+\.\d+$/.test(name) ||
    name === '[::1]' ||
    /^\[::ffff:7f[0-9a-f]{2}:[0-9a-f]{1,4}\]$/.test(name)
  );
}

/**
 * Whether a host (a Host value, or an address as `--host` takes it) is this machine's own loopback: `localhost`
 * and its subdomains (RFC 6761 keeps them local),
 * 127.0.0.0/8, `[::1]` and IPv4-mapped 127.x. No DNS answer of an attacker's can make a browser send one of these.
 */
export function isLoopbackHost(host: string): boolean {
  const name = hostName(asHostValue(host));
  return name !== undefined && isLoopbackName(name);
}

/** An `--allowed-hosts` entry in the form Host names are compared in; throws a MockSetupError naming a bad one. */
function allowedEntry(entry: string): string {
  const domain = entry.startsWith('.');
  const value = asHostValue(domain ? entry.slice(1) : entry);
  const name = hostName(value);
  if (name === undefined || name === '' || /:\d+$/.test(value.replace(/^\[.*\]/, '')))
    throw new MockSetupError(
      `allowed host '${entry.slice(0, shownHostChars)}' is not a host name (give a name or an IP address without ` +
        'port, or .domain for a domain and its subdomains)',
    );
  return domain ? `.${name}` : name;
}

/**
 * The check of a request's Host against the loopback names and the allowed ones, as Vite's `server.allowedHosts` and
 * webpack-dev-server's `allowedHosts` make it: a page whose own name an attacker re-points to 127.0.0.1 (DNS
 * rebinding) sends its own name as Host, and is refused. Unlike theirs, an IP address other than loopback is not
 * allowed by itself: on a LAN (`--host 0.0.0.0`) anyone who can reach the machine could read the journal, so the user
 * names the addresses that may. Throws a MockSetupError naming a bad entry.
 */
export function hostCheck(allowed: AllowedHosts): (request: MockRequest) => HttpProblem | undefined {
  if (allowed === true) return () => undefined;
  const entries = allowed.map(allowedEntry);
  const exact = new Set(entries.filter((entry) => !entry.startsWith('.')));
  const domains = entries.filter((entry) => entry.startsWith('.'));
  const admits = (name: string) =>
    exact.has(name) || domains.some((domain) => name === domain.slice(1) || name.endsWith(domain));
  return (request) => {
    const host = headerValue(request.headers, 'host') ?? '';
    const name = hostName(host);
    if (name !== undefined && (isLoopbackName(name) || admits(name))) return undefined;
    const shown = JSON.stringify(host.slice(0, shownHostChars));
    return new HttpProblem(
      403,
      `The control room answers only requests whose Host names this machine (localhost, 127.0.0.1, [::1]) or a ` +
        `host allowed with --allowed-hosts (option allowedHosts); Host ${shown} is not one` +
        (name === undefined
          ? ''
          : `: a web page may be reaching it by DNS rebinding. If you use this name, start the mock with ` +
            `--allowed-hosts ${name}`),
    );
  };
}
