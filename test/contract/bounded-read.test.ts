import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { FileTooLarge, readBounded, readBoundedSync } from '../../http/bounded-read.js';
import { runCli } from '../helpers/cli.js';
import { runs } from '../properties/runs.js';

const dir = mkdtempSync(join(tmpdir(), 'evalkit-bounded-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('a file a user names is read whole, never past its limit', () => {
  it('property: any content up to the limit reads back exactly, sync and async; one byte more is refused', async () => {
    let file = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.uint8Array({ maxLength: 200_000 }),
        fc.integer({ min: 0, max: 200_000 }),
        async (bytes, limit) => {
          const path = join(dir, `file-${file++}`);
          writeFileSync(path, bytes);
          const expected = Buffer.from(bytes).toString('utf8');
          if (bytes.length <= limit) {
            expect(readBoundedSync(path, limit)).toBe(expected);
            expect(await readBounded(path, limit)).toBe(expected);
          } else {
            expect(() => readBoundedSync(path, limit)).toThrow(FileTooLarge);
            await expect(readBounded(path, limit)).rejects.toThrow(FileTooLarge);
          }
        },
      ),
      runs(60),
    );
  });

  it('a device that never ends (/dev/zero) is refused at the limit, not read until memory runs out', async () => {
    expect(() => readBoundedSync('/dev/zero', 2 ** 20)).toThrow('larger than 1 MiB');
    await expect(readBounded('/dev/zero', 2 ** 20)).rejects.toThrow('larger than 1 MiB');
  });
});

describe('each command refuses /dev/zero in one line naming the file, exit 2', () => {
  it.each([
    [
      ['contract', '--base-url', 'http://127.0.0.1:9', '--create-body', '/dev/zero'],
      /^evalkit contract: --create-body cannot read \/dev\/zero \(larger than 64 MiB\)\n$/,
    ],
    [['diff', '/dev/zero', '/dev/zero'], /^evalkit diff: cannot read \/dev\/zero \(larger than 64 MiB\)\n$/],
    [['mock', '--port', '0', '--scenarios', '/dev/zero'], /^evalkit mock: \/dev\/zero: larger than 1 MiB\n$/],
  ])('evalkit %s', async (args, line) => {
    const run = await runCli(args);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(line);
  });
});
