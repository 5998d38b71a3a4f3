import { readBounded, readFailure } from '../http/bounded-read.js';
import { UsageError } from './command.js';

/** A create body, a CA bundle or an OpenAPI document: past this it is none of them (`/dev/zero` is one such path). */
const givenFileLimit = 64 * 2 ** 20;

/**
 * The text of a file the command was given; one that cannot be read is a usage error naming the option it came with
 * (`--ca cannot read x.pem (ENOENT)`), or only the file for an operand.
 */
export async function readGivenFile(file: string, option?: string): Promise<string> {
  try {
    return await readBounded(file, givenFileLimit);
  } catch (error) {
    throw new UsageError(`${option === undefined ? '' : `${option} `}cannot read ${file} (${readFailure(error)})`);
  }
}
