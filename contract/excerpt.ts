/** The most of one piece of deployment text a report quotes: enough to recognise it, never a flood. */
export const excerptLength = 200;

/** The first characters of a body, quoted, with its full size when cut: `"Internal Server Error"` or `"{…" (4.0 MiB in all)`. */
export function excerpt(text: string, bytes = Buffer.byteLength(text)): string {
  if (text.length === 0) return '(an empty body)';
  if (text.length <= excerptLength) return JSON.stringify(text);
  return `${JSON.stringify(`${text.slice(0, excerptLength)}…`)} (${describeSize(bytes)} in all)`;
}

export function describeSize(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MiB` : bytes >= 10 * 1024 ? `${(bytes / 1024).toFixed(0)} KiB` : `${bytes} bytes`;
}
