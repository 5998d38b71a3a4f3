import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { isInside, KeyProblem, pseudonymKey } from '../../http/pseudonym-key.js';
import { removeTempDirs, tempDir } from '../helpers/temp-dirs.js';
import { runs } from '../properties/runs.js';

afterAll(removeTempDirs);

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');

describe('the pseudonym key: a private file of its own, never through a link', () => {
  it('is made once, mode 0600, 32 random bytes as hex; read again it gives the same pseudonyms', async () => {
    const file = join(tempDir(), 'keys', 'pseudonym-key');
    const first = await pseudonymKey(file);
    expect(first.created).toBe(true);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readFileSync(file, 'utf8')).toMatch(/^[0-9a-f]{64}\n$/);
    const again = await pseudonymKey(file);
    expect(again.created).toBe(false);
    expect(hex(again.hash('jane.doe'))).toBe(hex(first.hash('jane.doe')));
    const other = await pseudonymKey(join(tempDir(), 'other-key'));
    expect(hex(other.hash('jane.doe'))).not.toBe(hex(first.hash('jane.doe')));
  });

  it('refuses a link planted at its name, leading to a key or nowhere; writes nothing there', async () => {
    const dir = tempDir();
    const elsewhere = join(dir, 'elsewhere');
    writeFileSync(elsewhere, `${'ab'.repeat(32)}\n`, { mode: 0o600 });
    for (const [name, target] of [
      ['to-a-key', elsewhere],
      ['to-nowhere', join(dir, 'missing')],
    ] as const) {
      const link = join(dir, name);
      symlinkSync(target, link);
      await expect(pseudonymKey(link)).rejects.toThrow(
        new KeyProblem(`${link} is a symbolic link: evalkit reads a pseudonym key only from a private file of its own`),
      );
    }
    expect(existsSync(join(dir, 'missing'))).toBe(false);
    expect(readFileSync(elsewhere, 'utf8')).toBe(`${'ab'.repeat(32)}\n`);
  });

  it('refuses a key others may read, a FIFO, a folder, and any text that is not a key, naming the file', async () => {
    const dir = tempDir();
    const open = join(dir, 'open');
    writeFileSync(open, `${'ab'.repeat(32)}\n`);
    chmodSync(open, 0o644);
    await expect(pseudonymKey(open)).rejects.toThrow(
      `${open} can be read or written by others (mode 644): chmod 600 ${open}`,
    );
    const fifo = join(dir, 'fifo');
    execFileSync('mkfifo', [fifo]);
    await expect(pseudonymKey(fifo)).rejects.toThrow(`${fifo} is not a plain file`);
    const folder = join(dir, 'folder');
    mkdirSync(folder);
    await expect(pseudonymKey(folder)).rejects.toThrow(`${folder} is not a plain file`);
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: 'binary', maxLength: 2000 }), async (text) => {
        fc.pre(!/^[0-9a-f]{64}\r?\n?$/.test(text));
        const file = join(dir, 'not-a-key');
        writeFileSync(file, text, { mode: 0o600 });
        chmodSync(file, 0o600);
        await expect(pseudonymKey(file)).rejects.toThrow(
          `${file} is not an evalkit pseudonym key (64 hex digits on one line): name another file`,
        );
      }),
      runs(50),
    );
  });

  it("knows a file inside a folder, through the folder's own links too", async () => {
    const dir = tempDir();
    const recordings = join(dir, 'recordings');
    mkdirSync(recordings);
    symlinkSync(recordings, join(dir, 'alias'));
    expect(await isInside(join(recordings, 'k'), recordings)).toBe(true);
    expect(await isInside(join(dir, 'alias', 'deeper', 'k'), recordings)).toBe(true);
    expect(await isInside(join(recordings, '..', 'k'), recordings)).toBe(false);
    expect(await isInside(join(dir, 'recordings-2', 'k'), recordings)).toBe(false);
    expect(await isInside(recordings, join(dir, 'not-yet', '..', 'recordings'))).toBe(true);
  });
});
