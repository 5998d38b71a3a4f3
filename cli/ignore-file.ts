import type { MockComparisonOptions } from '../contract/compare/comparison.js';
import { stableIdPattern } from '../http/stable-id.js';
import { stringOption, UsageError, type OptionValues } from './command.js';
import { readGivenFile } from './given-file.js';

/**
 * The ids an ignore file lists (compare-mock's differences, diff's changes): one a line, `#` starting a comment, blank
 * lines skipped. Anything else is a usage error naming its line, so a mistyped id is never silently accepted as
 * nothing.
 */
export function ignoredIds(text: string, file: string): Set<string> {
  const ids = new Set<string>();
  for (const [index, line] of text.split(/\r?\n/).entries()) {
    const entry = line.replace(/#.*/, '').trim();
    if (entry === '') continue;
    if (!stableIdPattern.test(entry))
      throw new UsageError(
        `--ignore ${file} line ${index + 1}: ${JSON.stringify(entry.slice(0, 40))} is not an id ` +
          '(12 hex characters, as a --compare-mock or diff report prints them)',
      );
    ids.add(entry);
  }
  return ids;
}

/** The comparison's options with the ids `--ignore FILE` lists as accepted; read only with --compare-mock. */
export async function withAcceptedDifferences(
  options: MockComparisonOptions | undefined,
  values: OptionValues,
): Promise<MockComparisonOptions | undefined> {
  if (options === undefined || stringOption(values, 'ignore') === undefined) return options;
  return { ...options, accepted: await acceptedIds(values) };
}

/** The ids `--ignore FILE` lists, or an empty set without the flag. */
export async function acceptedIds(values: OptionValues): Promise<Set<string>> {
  const file = stringOption(values, 'ignore');
  return file === undefined ? new Set() : ignoredIds(await readGivenFile(file, '--ignore'), file);
}
