/** Characters of a deployment's text (a finding, a request or an answer) that a report people read shows. */
export const excerptChars = 2_000;

/**
 * At most `max` characters, with a marker saying how many were cut. Cut only text already redacted: a cut through a
 * secret would leave part of it in clear.
 */
export function excerpt(text: string, max = excerptChars): string {
  return text.length > max ? `${text.slice(0, max)}\n… (${text.length - max} more characters cut)` : text;
}
