import { readFile } from 'node:fs/promises';
import { UsageError } from './command.js';

/**
 * The text of a file the command was given; one that cannot be read is a usage error naming the option it came with
 * (`--ca cannot read x.pem (ENOENT)`), or only the file for an operand.
 */
export async function readGivenFile(file: string, option?: string): Promise<string> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'error';
    throw new UsageError(`${option === undefined ? '' : `${option} `}cannot read ${file} (${code})`);
  }
}
