import { mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { AppendOnlyFile, FolderProblem, replaceFile } from '../../http/folder-files.js';
import { removeTempDirs, tempDir } from '../helpers/temp-dirs.js';
import { runs } from '../properties/runs.js';

/** The one writer of files in a folder a user named: only inside it, never through a link. */

afterAll(removeTempDirs);

describe('http/folder-files.ts', () => {
  it('property: any name is written inside the folder, as that one entry, or refused naming it', async () => {
    const root = tempDir();
    const names = fc.oneof(
      fc.string({ maxLength: 12 }),
      fc.constantFrom('.', '..', '../x', 'a/b', 'a\\b', '/etc', 'x\0y', ''),
      fc.array(fc.constantFrom('..', '.', 'a', '/', '\\'), { maxLength: 5 }).map((parts) => parts.join('')),
    );
    let run = 0;
    await fc.assert(
      fc.asyncProperty(names, async (name) => {
        const dir = join(root, `run-${++run}`);
        mkdirSync(dir);
        try {
          const file = await replaceFile(dir, name, (write) => write('content'));
          expect(file).toBe(join(dir, name));
          expect(readdirSync(dir)).toEqual([name]);
        } catch (error) {
          expect(error).toBeInstanceOf(FolderProblem);
          expect(readdirSync(dir)).toEqual([]);
        }
        // Nothing beside the runs' folders: no write escaped one.
        expect(readdirSync(root).every((entry) => entry.startsWith('run-'))).toBe(true);
      }),
      runs(150),
    );
  });

  it('a link at the name: replaced by the file, its target unchanged; appending through one: refused', async () => {
    const dir = tempDir();
    const target = join(tempDir(), 'target');
    writeFileSync(target, 'theirs');
    symlinkSync(target, join(dir, 'out.json'));
    await replaceFile(dir, 'out.json', (write) => write('ours'));
    expect([readFileSync(target, 'utf8'), readFileSync(join(dir, 'out.json'), 'utf8')]).toEqual(['theirs', 'ours']);
    symlinkSync(target, join(dir, 'log.jsonl'));
    await expect(AppendOnlyFile.open(dir, 'log.jsonl')).rejects.toThrow(
      `${join(dir, 'log.jsonl')} is a symbolic link: evalkit writes only inside the folder asked for`,
    );
    const log = await AppendOnlyFile.open(dir, 'fresh.jsonl');
    await log.append('a\n');
    await log.append('b\n');
    await log.close();
    expect(readFileSync(join(dir, 'fresh.jsonl'), 'utf8')).toBe('a\nb\n');
  });
});
