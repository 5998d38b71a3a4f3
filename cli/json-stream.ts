export type Write = (chunk: string) => Promise<void>;

const CHUNK = 500;

function indent(text: string, depth: number): string {
  const pad = '  '.repeat(depth);
  return pad + text.replace(/\n/g, `\n${pad}`);
}

/**
 * Writes items as ndjson, or as the pretty JSON array `JSON.stringify(items, null, 2)` would print at `depth`,
 * byte for byte, without holding the whole batch in memory: a million fixtures stream in constant space.
 */
export async function writeItems(items: Iterable<unknown>, format: 'json' | 'ndjson', write: Write, depth = 0): Promise<void> {
  let buffer = '';
  let count = 0;
  for (const item of items) {
    if (format === 'ndjson') buffer += `${JSON.stringify(item)}\n`;
    else buffer += `${count === 0 ? '[\n' : ',\n'}${indent(JSON.stringify(item, null, 2), depth + 1)}`;
    if (++count % CHUNK === 0) {
      await write(buffer);
      buffer = '';
    }
  }
  if (format === 'json') buffer += count === 0 ? '[]' : `\n${'  '.repeat(depth)}]`;
  await write(buffer);
}

/** A whole document of items: the array or the lines, ending in a newline. */
export async function writeDocument(items: Iterable<unknown>, format: 'json' | 'ndjson', write: Write): Promise<void> {
  await writeItems(items, format, write);
  if (format === 'json') await write('\n');
}
