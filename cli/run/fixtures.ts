import { profiles } from '../../generators/profile.js';
import { resourceNames, type ResourceName } from '../../schemas/index.js';
import {
  choiceOption,
  formatOf,
  integerOption,
  stringOption,
  UsageError,
  type OptionValues,
  type RunCommand,
} from '../command.js';
import { fixturesFormats } from '../commands/fixtures.js';
import { FolderProblem } from '../../http/folder-files.js';
import { writeFixtures, writeFixturesToDir, type FixturesPlan } from '../fixtures/write-fixtures.js';
import { writeOut } from '../output.js';

/** The resource --schema names, or all of them. */
function resources(values: OptionValues): ResourceName[] {
  const name = choiceOption(values, 'schema', resourceNames);
  return name === undefined ? resourceNames : [name];
}

/** The files written into `--out`, or a usage error naming a link planted there (http/folder-files.ts). */
async function writtenTo(plan: FixturesPlan, out: string): Promise<string[]> {
  try {
    return await writeFixturesToDir(plan, out);
  } catch (error) {
    if (error instanceof FolderProblem) throw new UsageError(`--out: ${error.message}`);
    throw error;
  }
}

/** `evalkit fixtures`: generated instances (or invalid create requests) to stdout, streamed, or one file each. */
export const run: RunCommand = async (values, io) => {
  const count = integerOption(values, 'count', 0, 1_000_000) ?? 10;
  const seed = stringOption(values, 'seed') ?? '1';
  const profile = choiceOption(values, 'profile', profiles) ?? 'mixed';
  const format = formatOf(values, fixturesFormats);
  const out = stringOption(values, 'out');
  const invalid = values.invalid === true;
  const schema = stringOption(values, 'schema');
  if (invalid && schema !== undefined && schema !== 'CreateEvaluationRequest') {
    throw new UsageError(
      '--invalid makes CreateEvaluationRequest bodies only; drop --schema or pass --schema CreateEvaluationRequest',
    );
  }
  const plan = {
    resources: invalid ? (['CreateEvaluationRequest'] as ResourceName[]) : resources(values),
    count,
    seed,
    profile,
    format,
    invalid,
  };
  if (out === undefined) await writeFixtures(plan, (chunk) => writeOut(io.stdout, chunk));
  else for (const file of await writtenTo(plan, out)) io.stderr.write(`wrote ${file}\n`);
  return 0;
};
