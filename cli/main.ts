import { evalkitVersion } from '../api/version.js';
import { escapeControlCharacters } from '../http/redaction.js';
import { commandHelp, parseCommandArgs, type Command } from './command.js';
import { nearestName } from '../http/spelling.js';
import { commands } from './commands/index.js';
import type { CliIo } from './io.js';
import { OutputClosed } from './output.js';

/** One rule for every command, printed by --help and tabled in docs/contract.md. */
const exitCodes = [
  'Exit codes:',
  '  0  success',
  '  1  a failed verdict: contract or proxy FAIL or NOTHING VERIFIED, diff: a change breaks a client',
  '  2  a usage error, or the command cannot run: a port in use, a deployment that cannot be reached, a file it',
  '     cannot read or write',
].join('\n');

function mainHelp(): string {
  const width = Math.max(...commands.map((command) => command.name.length)) + 2;
  return [
    'Usage: evalkit <command> [options]',
    '',
    'Contract tests, a mock server and fixtures for the Evaluation Service API.',
    '',
    'Commands:',
    ...commands.map((command) => `  ${command.name.padEnd(width)}${command.summary}`),
    '',
    'Run `evalkit help <command>` or `evalkit <command> --help` for the options of a command.',
    '',
    exitCodes,
    '',
  ].join('\n');
}

/**
 * Runs the CLI and resolves to the process exit code: 0 success, 1 a failed verdict (a contract, proxy or diff run's),
 * 2 a usage error or a command that cannot run. Everything it reads from or writes to the process goes through `io`.
 */
export async function main(argv: string[], io: CliIo): Promise<number> {
  const [name, ...rest] = argv;
  if (name === 'help' && rest.length > 0) return main([...rest.slice(0, 1), '--help'], io);
  // Asked for, the usage is the answer (stdout); given for want of a command, it is a usage error (stderr).
  if (name === undefined) {
    io.stderr.write(mainHelp());
    return 2;
  }
  if (name === '--help' || name === '-h' || name === 'help') {
    io.stdout.write(mainHelp());
    return 0;
  }
  if (name === '--version' || name === '-v') {
    io.stdout.write(`${evalkitVersion}\n`);
    return 0;
  }
  const command: Command | undefined = commands.find((candidate) => candidate.name === name);
  if (!command) {
    const names = commands.map((candidate) => candidate.name);
    // Before a command, an option can only be one of evalkit's own: `--verison` is a typo of one, not a command.
    const [unknown, close] = name.startsWith('-')
      ? [`option ${name}`, nearestName(name, ['--help', '--version'])]
      : [`command '${name}'`, nearestName(name, names)];
    io.stderr.write(
      `evalkit: unknown ${unknown}${close ? `; did you mean ${close}?` : ''} ` +
        `(commands: ${names.join(', ')}; see evalkit --help)\n`,
    );
    return 2;
  }
  try {
    const values = parseCommandArgs(command, rest);
    if (values === 'help') {
      io.stdout.write(commandHelp(command));
      return 0;
    }
    const { run } = await command.load();
    return await run(values, io);
  } catch (error) {
    // The reader went away (`| head -1`): what it read is all it wanted.
    if (error instanceof OutputClosed) return 0;
    // A UsageError, a CommandFailure, or anything a command did not turn into a report or a sentence: one line, never
    // a stack trace, exit 2 alike. A message may quote a file's text (a key of a --scenarios file): its line breaks
    // and controls are shown, so the line stays one and a terminal obeys nothing in it.
    const message = error instanceof Error ? error.message : String(error);
    io.stderr.write(`evalkit ${command.name}: ${escapeControlCharacters(message)}\n`);
    return 2;
  }
}
