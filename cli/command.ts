import { parseArgs } from 'node:util';

/** One option of a command: the parser's config and the --help text come from this one description. */
export interface OptionSpec {
  name: string;
  type: 'string' | 'boolean';
  /** The placeholder shown in help, e.g. `N` for `--count N`. */
  value?: string;
  multiple?: boolean;
  description: string;
  /** Shown in help; the command applies it. */
  defaultText?: string;
}

export type OptionValues = Record<string, string | boolean | string[] | undefined>;

export interface Command {
  name: string;
  summary: string;
  /** Longer help shown after the option list. */
  details?: string;
  options: OptionSpec[];
  /** Resolves to the exit code. */
  run(values: OptionValues): Promise<number>;
}

/** A mistake in how the command was called: reported in one line, exit code 2. */
export class UsageError extends Error {}

export function parseCommandArgs(command: Command, argv: string[]): OptionValues | 'help' {
  const config = Object.fromEntries(
    [...command.options, { name: 'help', type: 'boolean' as const, description: '' }].map((option) => [
      option.name,
      { type: option.type, multiple: option.multiple ?? false },
    ]),
  );
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options: config, strict: true, allowPositionals: false });
  } catch (error) {
    throw new UsageError((error as Error).message.split('\n')[0]);
  }
  if (parsed.values.help) return 'help';
  return parsed.values as OptionValues;
}

export function commandHelp(command: Command): string {
  const rows = command.options.map((option) => {
    const flag = `--${option.name}${option.value ? ` ${option.value}` : ''}${option.multiple ? ' (repeatable)' : ''}`;
    const suffix = option.defaultText ? ` (default: ${option.defaultText})` : '';
    return [flag, `${option.description}${suffix}`] as const;
  });
  rows.push(['--help', 'Show this help.']);
  const width = Math.max(...rows.map(([flag]) => flag.length)) + 2;
  const lines = [`Usage: evalkit ${command.name} [options]`, '', command.summary, '', 'Options:'];
  for (const [flag, text] of rows) lines.push(`  ${flag.padEnd(width)}${text}`);
  if (command.details) lines.push('', command.details);
  return `${lines.join('\n')}\n`;
}

/** Option readers that turn a bad value into a one-line UsageError naming the option. */
export function stringOption(values: OptionValues, name: string): string | undefined {
  const value = values[name];
  return typeof value === 'string' ? value : undefined;
}

export function integerOption(values: OptionValues, name: string, min: number, max = Number.MAX_SAFE_INTEGER): number | undefined {
  const raw = stringOption(values, name);
  if (raw === undefined) return undefined;
  if (!/^-?\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw new UsageError(`--${name} must be an integer from ${min} to ${max}, got '${raw}'`);
  }
  return Number(raw);
}

export function choiceOption<T extends string>(values: OptionValues, name: string, choices: readonly T[]): T | undefined {
  const raw = stringOption(values, name);
  if (raw === undefined) return undefined;
  if (!(choices as readonly string[]).includes(raw)) throw new UsageError(`--${name} must be one of ${choices.join(', ')}, got '${raw}'`);
  return raw as T;
}
