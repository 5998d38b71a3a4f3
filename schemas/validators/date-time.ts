import { fullFormats } from 'ajv-formats/dist/formats.js';
import { rfc3339DateTime } from './date-time-fields.js';

/**
 * RFC 3339 section 5.6 date-time: a `T` between date and time and a mandatory offset (`Z` or `+hh:mm`).
 * ajv-formats also accepts a space separator, a missing colon in the offset and an hour-only offset;
 * real deployments send such values and they break strict clients, so they are rejected here.
 * RFC 3339's ABNF is case-insensitive, so `t` and `z` are accepted as the RFC's own note allows.
 */
const calendarCheck = fullFormats['date-time'] as { validate: (value: string) => boolean };

export function isRfc3339DateTime(value: string): boolean {
  // The pattern settles the shape; ajv-formats' full check settles the calendar (month lengths, leap seconds).
  return rfc3339DateTime.test(value) && calendarCheck.validate(value);
}

export const dateTimeFormatDescription =
  'an RFC 3339 date-time such as 2024-05-20T10:11:12.123456+00:00 (a T and an offset)';
