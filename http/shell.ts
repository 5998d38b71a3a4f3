/**
 * A POSIX shell word that stands for the text as it is: single quotes, each inner quote closed, escaped and
 * reopened.
 */
export function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}
