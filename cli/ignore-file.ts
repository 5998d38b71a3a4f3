import type { MockComparisonOptions } from '../contract/compare/comparison.js';
import { differenceIdPattern } from '../contract/compare/difference-id.js';
import { stringOption, UsageError, type OptionValues } from './command.js';
import { readGivenFile } from './given-file.js';

/**
 * The difference ids an ignore file lists: one a line, `#` starting a comment, blank lines skipped. Anything else is a
 * usage error naming its line, so a mistyped id is never silently accepted as nothing.
 */
export function ignoredIds(text: string, file: string): Set<string> {
  const ids = new Set<string>();
  for (const [index, line] of text.split(/\r?\n/).entries()) {
    const entry = line.replace(/#.*/, '').trim();
    if (entry === '') continue;
    if (!differenceIdPattern.test(entry))
      throw new UsageError(
        `--ignore ${file} line ${index + 1}: ${JSON.stringify(entry.slice(0, 40))} is not a difference id ` +
          '(12 hex characters, as a --compare-mock report prints them)',
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
  const file = stringOption(values, 'ignore');
  if (options === undefined || file === undefined) return options;
  return { ...options, accepted: ignoredIds(await readGivenFile(file, '--ignore'), file) };
}
