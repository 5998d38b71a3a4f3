import { UsageError, type OptionValues } from './command.js';

const form = '--header must be "Name: value", e.g. --header "Authorization: Bearer TOKEN"';

/**
 * `Name: value` pairs. A malformed one is a usage error that says what is wrong but prints none of it: without a
 * colon, or with a space in the name, the text may be a credential.
 */
export function headers(values: OptionValues): Record<string, string> {
  const raw = values.header;
  const list = Array.isArray(raw) ? raw : typeof raw === 'string' ? [raw] : [];
  const out: Record<string, string> = {};
  for (const entry of list) {
    const colon = entry.indexOf(':');
    if (colon < 0) throw new UsageError(`${form}; this one has no colon`);
    const name = entry.slice(0, colon).trim();
    if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name))
      throw new UsageError(
        `${form}; this one's name, before the colon, is not a header name (letters, digits, - and !#$%&'*+.^_\`|~)`,
      );
    out[name] = entry.slice(colon + 1).trim();
  }
  return out;
}
