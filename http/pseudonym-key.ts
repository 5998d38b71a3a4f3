import { createHmac, randomBytes } from 'node:crypto';
import { mkdir, realpath } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { FileTooLarge, NotPrivate, readPrivateFile } from './bounded-read.js';
import { createPrivateFile, FolderProblem, ownSubfolder } from './folder-files.js';
import type { KeyedHash } from './pseudonym.js';

/**
 * The key of a user's pseudonyms (http/pseudonym.ts), kept in a local file: whoever holds it can tell which original
 * a pseudonym stands for, by trying candidates, so it never goes where recordings go. The pseudonyms are a function of
 * the key and the original alone: the key is the whole mapping, and nothing else is stored.
 */

/** A key file that cannot be used; the message names the file and what to do. */
export class KeyProblem extends Error {}

/** The folder of the default key file, in the working directory. */
const keyFolder = '.evalkit';

/** Where the key is kept unless the user names another file. */
export const defaultKeyFile = join(keyFolder, 'pseudonym-key');

/** 32 random bytes, as hex on one line. */
const keyText = /^([0-9a-f]{64})\r?\n?$/;

/** Past this, a file is no key of evalkit's. */
const keyFileLimit = 1024;

/** The path with every link of its existing part resolved, the rest as given: where a file is, or would be. */
async function canonical(path: string): Promise<string> {
  const rest: string[] = [];
  for (let head = resolve(path); ; head = dirname(head)) {
    try {
      return join(await realpath(head), ...rest.reverse());
    } catch {
      if (dirname(head) === head) return resolve(path);
      rest.push(basename(head));
    }
  }
}

/** Whether a file is, or would be, inside a folder (the folder's own links followed, as writing it would). */
export async function isInside(file: string, folder: string): Promise<boolean> {
  const path = relative(await canonical(folder), await canonical(file));
  return path === '' || !(path === '..' || path.startsWith(`..${sep}`) || isAbsolute(path));
}

/** `.evalkit` in the working directory, made when missing; a link or a file there is refused. */
async function ownKeyFolder(): Promise<void> {
  try {
    await ownSubfolder('.', keyFolder);
  } catch (error) {
    if (error instanceof FolderProblem) throw new KeyProblem(error.message);
    throw new KeyProblem(`cannot create ${keyFolder} (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
}

function hashUnder(key: Buffer): KeyedHash {
  return (text) => createHmac('sha256', key).update(text, 'utf8').digest();
}

/** The key file's text, or undefined when there is none yet. */
async function readKey(file: string): Promise<string | undefined> {
  try {
    return await readPrivateFile(file, keyFileLimit);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return undefined;
    if (error instanceof NotPrivate)
      throw new KeyProblem(`${error.message}: evalkit reads a pseudonym key only from a private file of its own`);
    if (error instanceof FileTooLarge) throw notAKey(file);
    throw new KeyProblem(`cannot read ${file} (${code ?? 'error'})`);
  }
}

function notAKey(file: string): KeyProblem {
  return new KeyProblem(`${file} is not an evalkit pseudonym key (64 hex digits on one line): name another file`);
}

/**
 * The keyed hash of the key in `file`, made (32 random bytes, mode 0600) when the file does not exist yet; `created`
 * says it was. The default file's folder (`.evalkit`) is refused when it is a link; a file the user named is taken
 * in the folder they named. Throws KeyProblem, naming the file, for one that is no key or not private.
 */
export async function pseudonymKey(file: string): Promise<{ hash: KeyedHash; created: boolean }> {
  // The default folder is evalkit's own: a link planted in its place would lend a key, or take one, elsewhere.
  // Compared resolved: `./.evalkit/pseudonym-key` is the default file too, and its folder as much evalkit's own.
  const isDefault = resolve(file) === resolve(defaultKeyFile);
  if (isDefault) await ownKeyFolder();
  let text = await readKey(file);
  let created = false;
  if (text === undefined) {
    const folder = dirname(file);
    try {
      if (!isDefault) await mkdir(folder, { recursive: true });
      created = await createPrivateFile(folder, basename(file), `${randomBytes(32).toString('hex')}\n`);
    } catch (error) {
      if (error instanceof FolderProblem) throw new KeyProblem(error.message);
      throw new KeyProblem(`cannot create ${file} (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
    }
    // Another process may have made it in between: its key is the one to use.
    text = await readKey(file);
    if (text === undefined) throw new KeyProblem(`cannot read ${file} (ENOENT)`);
  }
  const hex = keyText.exec(text)?.[1];
  if (hex === undefined) throw notAKey(file);
  return { hash: hashUnder(Buffer.from(hex, 'hex')), created };
}
