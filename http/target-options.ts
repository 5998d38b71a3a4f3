import { validateHeaderName, validateHeaderValue } from 'node:http';

/** Raised for options no run could use (a bad URL, an invalid create body): the contract's and the proxy's alike. */
export class ContractOptionError extends Error {}

/** The raw value may carry a password: never quote its userinfo. */
const withoutUserinfo = (raw: string) => raw.replace(/^([^/]*\/\/)?[^/@]*@/, '$1<USERINFO>@');

/**
 * `option`: how the user gave the URL, for the message. A value without a scheme (`localhost:4010`, which URL reads
 * as the scheme `localhost:`) gets the http:// form to pass instead.
 */
export function parseBaseUrl(raw: string, option = '--base-url'): URL {
  const schemeless = !/^[a-z][a-z0-9+.-]*:\/\//i.test(raw) && URL.canParse(`http://${raw}`) && raw !== '';
  const suggestion = schemeless ? `: did you mean 'http://${withoutUserinfo(raw)}'?` : '';
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ContractOptionError(
      `${option} must be an absolute http(s) URL, got '${withoutUserinfo(raw)}'${suggestion}`,
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new ContractOptionError(
      schemeless
        ? `${option} must be an absolute http(s) URL, got '${withoutUserinfo(raw)}'${suggestion}`
        : `${option} must be http or https, got '${url.protocol}'`,
    );
  // `http://127.0.0.1:` is what an unset port variable leaves (`http://127.0.0.1:$PORT`); URL reads it as port 80.
  if (/^[a-z][a-z0-9+.-]*:\/\/(?:[^/?#@]*@)?(?:\[[^\]]*\]|[^/?#:@]*):(?:[/?#]|$)/i.test(raw))
    throw new ContractOptionError(
      `${option} has a ':' with no port after it, got '${withoutUserinfo(raw)}': an unset port variable? ` +
        "Give the port, or leave the colon out for the scheme's own",
    );
  return url;
}

/** Headers the user gave, each one HTTP can carry; the message names the header only, as the value is a credential. */
export function checkHeaders(headers: Record<string, string>): void {
  for (const [name, value] of Object.entries(headers)) {
    try {
      validateHeaderName(name);
      validateHeaderValue(name, value);
    } catch {
      throw new ContractOptionError(`the header ${name} has a name or value HTTP cannot carry`);
    }
  }
}
