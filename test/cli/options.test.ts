import { describe, expect, it } from 'vitest';
import { commands } from '../../cli/commands/index.js';
import { runCli } from '../helpers/cli.js';

/** Every command is tried as a new user would: typos, prefixes, a missing value, and both ways of asking for help. */
describe.each(commands.map((command) => [command.name, command] as const))('evalkit %s', (name, command) => {
  const first = command.options[0]?.name as string;

  it('answers an unknown option in its own words, with the nearest option', async () => {
    const typo = `${first.slice(0, -1)}${first.endsWith('x') ? 'y' : 'x'}`;
    const run = await runCli([name, `--${typo}`]);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      `evalkit ${name}: unknown option --${typo}; did you mean --${first}? (see evalkit ${name} --help)\n`,
    );
  });

  it.each([
    ['help', name],
    [name, '-h'],
    [name, '--help'],
  ])('prints its help for `%s %s`', async (...args) => {
    const run = await runCli(args);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(new RegExp(`^Usage: evalkit ${name} \\[options\\]`));
    for (const option of command.options) expect(run.stdout).toContain(`--${option.name}`);
  });

  it("names a string option given no value, never with Node's parser text", async () => {
    const option = command.options.find((candidate) => candidate.type === 'string');
    if (!option) return;
    const run = await runCli([name, `--${option.name}`]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(new RegExp(`^evalkit ${name}: --${option.name} needs a value`));
    expect(run.stderr).not.toMatch(/ambiguous|ERR_PARSE_ARGS|Option '/);
  });
});

describe('option parsing', () => {
  it('calls a prefix of several options ambiguous and lists them', async () => {
    const run = await runCli(['contract', '--report', 'x.json']);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      'evalkit contract: --report is ambiguous: did you mean --report-json or --report-junit or --report-html ' +
        'or --report-github? (see evalkit contract --help)\n',
    );
  });

  it('takes a value that starts with a dash, and says which option swallowed the next one', async () => {
    const swallowed = await runCli(['contract', '--base-url', '--strict']);
    expect(swallowed.stderr).toBe('evalkit contract: --base-url needs a value (URL), got the option --strict\n');
    const negative = await runCli([
      'fixtures',
      '--schema',
      'RateLimit',
      '--count',
      '1',
      '--seed',
      '-5',
      '--format',
      'ndjson',
    ]);
    expect(negative.code).toBe(0);
    expect(negative.stdout.split('\n')).toHaveLength(2);
  });

  it('names an unknown command in help', async () => {
    const run = await runCli(['help', 'mokc']);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^evalkit: unknown command 'mokc'/);
  });
});
