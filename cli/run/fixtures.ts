import { stat } from 'node:fs/promises';
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
import { isInside } from '../../http/pseudonym-key.js';
import { didYouMean } from '../../http/spelling.js';
import { readRecording, TrafficProblem, type Recording } from '../../http/traffic.js';
import { shownName } from '../../mock/core/scenarios.js';
import { writeFromRecording } from '../fixtures/from-recording.js';
import { personalValuesOf, scanFolder, scanLines } from '../fixtures/scan.js';
import { createFolder, writeFixtures, writeFixturesToDir, type FixturesPlan } from '../fixtures/write-fixtures.js';
import { writeOut } from '../output.js';
import { pseudonymizerOf } from '../pseudonymizer-option.js';
import type { CliIo } from '../io.js';

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

/** A recording an option names, or a usage error naming the option and the problem. */
async function recordingOf(option: string, path: string): Promise<Recording> {
  try {
    return await readRecording(path);
  } catch (error) {
    if (error instanceof TrafficProblem) throw new UsageError(`${option}: ${error.message}`);
    throw error;
  }
}

/** Refuses every option given but the ones a mode takes, naming the first. */
function onlyOptions(values: OptionValues, allowed: readonly string[], mode: string): void {
  const other = Object.keys(values).find((name) => name !== '_' && !allowed.includes(name));
  if (other !== undefined) throw new UsageError(`--${other} does not apply to ${mode}`);
}

/** `evalkit fixtures scan DIR --against PATH`: 1 when a file under DIR holds a personal value PATH has in clear. */
async function scan(operands: string[], values: OptionValues, io: CliIo): Promise<number> {
  const [first = '', ...rest] = operands;
  if (first !== 'scan')
    throw new UsageError(
      `unexpected argument '${shownName(first)}'${didYouMean(first, ['scan'])} (see evalkit fixtures --help)`,
    );
  if (rest.length !== 1) throw new UsageError(`scan takes one folder, DIR, got ${rest.length}`);
  const dir = rest[0] as string;
  onlyOptions(values, ['against'], 'fixtures scan');
  const against = stringOption(values, 'against');
  if (against === undefined)
    throw new UsageError('scan needs --against PATH: the recording whose personal values DIR must not hold');
  const folder = await stat(dir).catch((error: NodeJS.ErrnoException) => {
    throw new UsageError(`scan: cannot read ${dir} (${error.code ?? 'error'})`);
  });
  if (!folder.isDirectory()) throw new UsageError(`scan: ${dir} is not a folder: name the folder of fixtures`);
  const result = await scanFolder(dir, personalValuesOf(await recordingOf('--against', against)));
  await writeOut(io.stdout, `${scanLines(result, dir, against).join('\n')}\n`);
  return result.findings.length > 0 ? 1 : 0;
}

/** `evalkit fixtures --from PATH --out DIR`: a recording written again as a record folder, maybe pseudonymized. */
async function fromRecording(source: string, values: OptionValues, io: CliIo): Promise<number> {
  onlyOptions(values, ['from', 'out', 'pseudonymize', 'pseudonym-key'], '--from (it copies a recording)');
  const out = stringOption(values, 'out');
  if (out === undefined) throw new UsageError('--from needs --out DIR: the folder to write the recording into');
  if ((await isInside(out, source)) && (await isInside(source, out)))
    throw new UsageError(`--out ${out} is the --from folder: write into another, so no file of the recording stays`);
  const recording = await recordingOf('--from', source);
  const pseudonymizer = await pseudonymizerOf(values, io, { option: '--out', dir: out }, offlineRemembered);
  await createFolder(out);
  try {
    const { wrote, leftOut } = await writeFromRecording(recording, out, pseudonymizer);
    for (const line of [...wrote.map((what) => `wrote ${what}`), ...leftOut]) io.stderr.write(`${line}\n`);
  } catch (error) {
    if (error instanceof FolderProblem) throw new UsageError(`--out: ${error.message}`);
    throw error;
  }
  return 0;
}

/**
 * The personal values a pseudonymizer sweeps for when it writes a recording again: every one the recording holds, up
 * to this many (the traffic files' 256 MiB hold fewer ids and names than this in practice).
 */
const offlineRemembered = 100_000;

/**
 * `evalkit fixtures`: generated instances (or invalid create requests) to stdout, streamed, or one file each; a
 * recording written again (`--from`); or a folder scanned for personal values (`scan DIR`).
 */
export const run: RunCommand = async (values, io) => {
  const operands = (values._ as string[] | undefined) ?? [];
  if (operands.length > 0) return scan(operands, values, io);
  if (values.against !== undefined)
    throw new UsageError('--against is the recording of a scan: evalkit fixtures scan DIR --against PATH');
  const from = stringOption(values, 'from');
  if (from !== undefined) return fromRecording(from, values, io);
  if (values.pseudonymize === true || values['pseudonym-key'] !== undefined)
    throw new UsageError(
      `--${values.pseudonymize === true ? 'pseudonymize' : 'pseudonym-key'} rewrites a recording: add --from PATH ` +
        '(generated fixtures hold no personal value)',
    );
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
