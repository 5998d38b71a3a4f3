import { stableIdPattern } from '../http/stable-id.js';
import { stringOption, UsageError, type OptionValues } from './command.js';
import { readGivenFile } from './given-file.js';

/** Characters of a refused line quoted in its error: enough to recognise it, never a flood. */
const quotedChars = 40;

/** What a refused entry most likely meant, when it is an id written another way: `; did you mean 1f804d44846e?`. */
function meant(entry: string): string {
  const lower = entry.toLowerCase();
  if (stableIdPattern.test(lower)) return `; did you mean ${lower}?`;
  const [first] = lower.split(/\s/, 1);
  if (first !== undefined && stableIdPattern.test(first))
    return `; did you mean ${first} # …? (a comment starts with #)`;
  return '';
}

/**
 * The ids an ignore file lists (contract's and proxy's findings, compare-mock's differences, diff's changes): one a
 * line, `#` starting a comment, blank lines skipped, CRLF and a byte order mark read as any editor writes them.
 * Anything else is a usage error naming the file and its line, so a mistyped id is never silently accepted as
 * nothing; the line is quoted short and JSON-escaped (the CLI shows what is left invisible as escapes), so the
 * error stays one line whatever the file holds.
 */
export function ignoredIds(text: string, file: string): Set<string> {
  const ids = new Set<string>();
  for (const [index, line] of text.split(/\r?\n/).entries()) {
    const entry = line.replace(/#.*/, '').trim();
    if (entry === '') continue;
    if (!stableIdPattern.test(entry)) {
      const quoted = JSON.stringify(entry.slice(0, quotedChars)) + (entry.length > quotedChars ? '…' : '');
      throw new UsageError(
        `--ignore ${file} line ${index + 1}: ${quoted} is not an id ` +
          `(12 hex characters, as a contract, proxy, --compare-mock or diff report prints them)${meant(entry)}`,
      );
    }
    ids.add(entry);
  }
  return ids;
}

/** The ids `--ignore FILE` lists, or undefined without the flag. */
export async function acceptedIds(values: OptionValues): Promise<Set<string> | undefined> {
  const file = stringOption(values, 'ignore');
  return file === undefined ? undefined : ignoredIds(await readGivenFile(file, '--ignore'), file);
}
