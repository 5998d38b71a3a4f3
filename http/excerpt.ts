/**
 * Every cut of a deployment's text into a report goes through here. Cut only text already redacted: a cut through a
 * secret would leave part of it in clear.
 */

/**
 * The most of one piece of deployment text a finding quotes, or a report gives a line of its own: enough to recognise
 * it, never a flood.
 */
export const excerptLength = 200;

/**
 * Characters kept of a longer text a report shows on its own: a finding or a note, a request or an answer in the
 * HTML report, a GitHub annotation.
 */
const excerptChars = 10 * excerptLength;

/** At most `max` characters, with a marker giving the full length when cut: `…… (4096 characters in all)`. */
export function capped(text: string, max = excerptChars): string {
  return text.length <= max ? text : `${text.slice(0, max)}… (${text.length} characters in all)`;
}

/**
 * The first characters of a body, quoted, with its full size when cut: `"Internal Server Error"` or
 * `"{…" (4.0 MiB in all)`.
 */
export function excerpt(text: string, bytes = Buffer.byteLength(text)): string {
  if (text.length === 0) return '(an empty body)';
  if (text.length <= excerptLength) return JSON.stringify(text);
  return `${JSON.stringify(`${text.slice(0, excerptLength)}…`)} (${describeSize(bytes)} in all)`;
}

export function describeSize(bytes: number): string {
  return bytes >= 1024 * 1024
    ? `${(bytes / 1024 / 1024).toFixed(1)} MiB`
    : bytes >= 10 * 1024
      ? `${(bytes / 1024).toFixed(0)} KiB`
      : `${bytes} bytes`;
}
