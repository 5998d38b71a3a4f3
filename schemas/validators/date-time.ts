import { fullFormats } from 'ajv-formats/dist/formats.js';

/**
 * RFC 3339 section 5.6 date-time: a `T` between date and time and a mandatory offset (`Z` or `+hh:mm`).
 * ajv-formats also accepts a space separator, a missing colon in the offset and an hour-only offset;
 * real deployments send such values and they break strict clients, so they are rejected here.
 * RFC 3339's ABNF is case-insensitive, so `t` and `z` are accepted as the RFC's own note allows.
 */
const rfc3339DateTime =
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

const calendarCheck = fullFormats['date-time'] as { validate: (value: string) => boolean };

export function isRfc3339DateTime(value: string): boolean {
  // The pattern settles the shape; ajv-formats' full check settles the calendar (month lengths, leap seconds).
  return rfc3339DateTime.test(value) && calendarCheck.validate(value);
}

export const dateTimeFormatDescription =
  'an RFC 3339 date-time such as 2024-05-20T10:11:12.123456+00:00 (a T and an offset)';
