import { UsageError, type OptionValues } from './command.js';

/** `Name: value` pairs; a malformed one is a usage error that names the header but never prints its value. */
export function headers(values: OptionValues): Record<string, string> {
  const raw = values.header;
  const list = Array.isArray(raw) ? raw : typeof raw === 'string' ? [raw] : [];
  const out: Record<string, string> = {};
  for (const entry of list) {
    const colon = entry.indexOf(':');
    const name = colon > 0 ? entry.slice(0, colon).trim() : '';
    if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name)) {
      const start = JSON.stringify(entry.slice(0, Math.max(colon, 0)).slice(0, 20));
      throw new UsageError(`--header must be "Name: value" with a valid header name (got one starting ${start})`);
    }
    out[name] = entry.slice(colon + 1).trim();
  }
  return out;
}
