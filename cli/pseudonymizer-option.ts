import { defaultKeyFile, isInside, KeyProblem, pseudonymKey } from '../http/pseudonym-key.js';
import { Pseudonymizer } from '../http/pseudonymizer.js';
import { stringOption, UsageError, type OptionValues } from './command.js';
import type { CliIo } from './io.js';

/**
 * The pseudonymizer `--pseudonymize` asks for, or undefined. `writes`: the folder the command writes recordings into
 * and the option naming it; a key file inside it is refused, since it would travel with them. `remember`: how many
 * personal values its sweep looks for (http/pseudonymizer.ts).
 */
export async function pseudonymizerOf(
  values: OptionValues,
  io: CliIo,
  writes?: { option: string; dir: string },
  remember?: number,
): Promise<Pseudonymizer | undefined> {
  const file = stringOption(values, 'pseudonym-key');
  if (values.pseudonymize !== true) {
    if (file !== undefined) throw new UsageError('--pseudonym-key is the key of --pseudonymize: add --pseudonymize');
    return undefined;
  }
  const keyFile = file ?? defaultKeyFile;
  if (writes !== undefined && (await isInside(keyFile, writes.dir)))
    throw new UsageError(
      `--pseudonym-key: ${keyFile} is inside the ${writes.option} folder ${writes.dir}, where it would travel with ` +
        'the recordings: keep the key elsewhere (--pseudonym-key FILE)',
    );
  try {
    const { hash, created } = await pseudonymKey(keyFile);
    if (created) io.stderr.write(`created the pseudonym key ${keyFile} (mode 0600): keep it out of the repository\n`);
    return new Pseudonymizer(hash, remember);
  } catch (error) {
    if (error instanceof KeyProblem) throw new UsageError(`--pseudonym-key: ${error.message}`);
    throw error;
  }
}
