/*
 * The one reader of an RFC 3339 date-time's shape (section 5.6): apart from the validators' calendar check, so the
 * mock's clock and the CLI's option parsing read it without loading ajv-formats.
 */

export const rfc3339DateTime =
  /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(?:[Zz]|([+-])(\d{2}):(\d{2}))$/;

/** A date-time's fields as written: the wall clock and its offset from UTC (`Z` is +00:00). */
export interface DateTimeFields {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  /** The fraction's digits as written, any number of them ('' for none). */
  fraction: string;
  offset: { sign: 1 | -1; hours: number; minutes: number };
}

/** An offset in minutes east of UTC. */
export function offsetMinutesOf({ sign, hours, minutes }: DateTimeFields['offset']): number {
  return sign * (hours * 60 + minutes);
}

/**
 * The one reader of an RFC 3339 date-time's shape, for the validators, the judge's instants and the mock's clock:
 * its fields, or undefined for text of another shape. The calendar is the caller's (isRfc3339DateTime checks it).
 */
export function dateTimeFields(value: string): DateTimeFields | undefined {
  const match = rfc3339DateTime.exec(value);
  if (!match) return undefined;
  const [, year, month, day, hour, minute, second, fraction = '', sign, offsetHours = '0', offsetMinutes = '0'] = match;
  return {
    year: Number(year),
    month: Number(month),
    day: Number(day),
    hour: Number(hour),
    minute: Number(minute),
    second: Number(second),
    fraction,
    offset: { sign: sign === '-' ? -1 : 1, hours: Number(offsetHours), minutes: Number(offsetMinutes) },
  };
}
