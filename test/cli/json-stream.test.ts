import { describe, expect, it } from 'vitest';
import { generateBatch } from '../../generators/index.js';
import { writeDocument, writeItems } from '../../cli/fixtures/json-stream.js';

async function collect(run: (write: (chunk: string) => Promise<void>) => Promise<void>): Promise<string> {
  let out = '';
  await run(async (chunk) => {
    out += chunk;
  });
  return out;
}

describe('streamed JSON', () => {
  const items = [...generateBatch('Evaluation', 'stream', 1203, { profile: 'edge' })];

  it('is byte-identical to JSON.stringify(items, null, 2), across chunk boundaries', async () => {
    expect(await collect((write) => writeDocument(items, 'json', write))).toBe(`${JSON.stringify(items, null, 2)}\n`);
  });

  it('nests at a depth exactly as JSON.stringify would inside an object', async () => {
    const nested = await collect(async (write) => {
      await write('{\n  "Evaluation": ');
      await writeItems(items.slice(0, 3), 'json', write, 1);
      await write(',\n  "Empty": ');
      await writeItems([], 'json', write, 1);
      await write('\n}');
    });
    expect(nested).toBe(JSON.stringify({ Evaluation: items.slice(0, 3), Empty: [] }, null, 2));
  });

  it('writes ndjson as one compact document per line', async () => {
    const lines = (await collect((write) => writeDocument(items, 'ndjson', write))).split('\n');
    expect(lines.pop()).toBe('');
    expect(lines.map((line) => JSON.parse(line))).toEqual(items);
  });
});
