import { validateHeaderName, validateHeaderValue } from 'node:http';

/** Raised for options no run could use (a bad URL, an invalid create body): the contract's and the proxy's alike. */
export class ContractOptionError extends Error {}

/** `option`: how the user gave the URL, for the message. */
export function parseBaseUrl(raw: string, option = '--base-url'): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    // The raw value may carry a password: never quote its userinfo.
    throw new ContractOptionError(
      `${option} must be an absolute http(s) URL, got '${raw.replace(/\/\/[^/@]*@/, '//<USERINFO>@')}'`,
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new ContractOptionError(`${option} must be http or https, got '${url.protocol}'`);
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
