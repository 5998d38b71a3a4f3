import type { CliIo } from './io.js';
import { nearestName } from '../http/spelling.js';

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

/** What a command does once its options are read; resolves to the exit code. */
export type RunCommand = (values: OptionValues, io: CliIo) => Promise<number>;

/**
 * A command as `evalkit --help` knows it. Its implementation is imported only when it runs, so that `--version`,
 * `--help` and usage errors load none of its dependencies (ajv, faker, express, the contract suite).
 */
export interface Command {
  name: string;
  summary: string;
  /** Longer help shown after the option list. */
  details?: string;
  options: OptionSpec[];
  /** Operands after the options, as help names them (`OLD`, `NEW`): read into `values._` in order. */
  operands?: string[];
  load(): Promise<{ run: RunCommand }>;
}

/** A mistake in how the command was called: reported in one line, exit code 2. */
export class UsageError extends Error {}

/** A failure at run time that the call itself did not cause (a port in use): one line, exit code 2 (cannot run). */
export class CommandFailure extends Error {}

/**
 * What an unknown option most likely meant: the options it begins (several: ambiguous), else the nearest by
 * spelling.
 */
function unknownOption(command: Command, name: string): UsageError {
  const names = command.options.map((option) => option.name);
  const help = `see evalkit ${command.name} --help`;
  const prefixed = names.filter((candidate) => name.length > 0 && candidate.startsWith(name));
  if (prefixed.length > 1)
    return new UsageError(
      `--${name} is ambiguous: did you mean ${prefixed.map((candidate) => `--${candidate}`).join(' or ')}? (${help})`,
    );
  const close = prefixed[0] ?? nearestName(name, names);
  return new UsageError(`unknown option --${name}${close ? `; did you mean --${close}?` : ''} (${help})`);
}

/**
 * Reads `--name value`, `--name=value`, repeatable options and flags. Every mistake is a UsageError in evalkit's
 * words naming the option (never Node's parser text); `-h` and `--help` ask for the command's help.
 */
export function parseCommandArgs(command: Command, argv: string[]): OptionValues | 'help' {
  const values: OptionValues = {};
  for (let index = 0; index < argv.length; index++) {
    const token = argv[index] as string;
    if (token === '-h' || token === '--help') return 'help';
    if (command.operands && !token.startsWith('-')) {
      values._ = [...((values._ as string[] | undefined) ?? []), token];
      continue;
    }
    if (!token.startsWith('--')) {
      throw new UsageError(
        token.startsWith('-')
          ? `unknown option ${token} (options are spelt --name; see evalkit ${command.name} --help)`
          : `unexpected argument '${token}' (see evalkit ${command.name} --help)`,
      );
    }
    const equals = token.indexOf('=');
    const name = equals > 0 ? token.slice(2, equals) : token.slice(2);
    const option = command.options.find((candidate) => candidate.name === name);
    if (!option) throw unknownOption(command, name);
    if (option.type === 'boolean') {
      if (equals > 0) throw new UsageError(`--${name} takes no value`);
      values[name] = true;
      continue;
    }
    const value = equals > 0 ? token.slice(equals + 1) : argv[++index];
    if (value === undefined || (equals < 0 && value.startsWith('--'))) {
      const placeholder = option.value ? ` (${option.value})` : '';
      const swallowed = value ? `, got the option ${value.split('=')[0]}` : '';
      throw new UsageError(`--${name} needs a value${placeholder}${swallowed}`);
    }
    // An empty value (an unset shell variable, `--out=`) names no file, folder or setting: leave the option out.
    if (value === '')
      throw new UsageError(`--${name} needs a value${option.value ? ` (${option.value})` : ''}, got an empty one`);
    if (option.multiple) values[name] = [...((values[name] as string[] | undefined) ?? []), value];
    else values[name] = value;
  }
  return values;
}

/** `--format`, its choices written once: help lists them, and the first is the default (`formatOf` reads it). */
export function formatOption(formats: readonly [string, ...string[]], description = 'Output format.'): OptionSpec {
  return { name: 'format', type: 'string', value: formats.join('|'), description, defaultText: formats[0] };
}

/** The --format given, one of `formats`, else the first of them. */
export function formatOf<T extends string>(values: OptionValues, formats: readonly [T, ...T[]]): T {
  return choiceOption(values, 'format', formats) ?? formats[0];
}

/** An option as help and the docs name it: `--header "Name: value" (repeatable)`. */
export function optionLabel(option: OptionSpec): string {
  return `--${option.name}${option.value ? ` ${option.value}` : ''}${option.multiple ? ' (repeatable)' : ''}`;
}

export function commandHelp(command: Command): string {
  const rows = command.options.map((option) => {
    const flag = optionLabel(option);
    const suffix = option.defaultText ? ` (default: ${option.defaultText})` : '';
    return [flag, `${option.description}${suffix}`] as const;
  });
  rows.push(['-h, --help', 'Show this help.']);
  const width = Math.max(...rows.map(([flag]) => flag.length)) + 2;
  const operands = command.operands ? ` ${command.operands.join(' ')}` : '';
  const lines = [`Usage: evalkit ${command.name} [options]${operands}`, '', command.summary, '', 'Options:'];
  for (const [flag, text] of rows) lines.push(`  ${flag.padEnd(width)}${text}`);
  if (command.details) lines.push('', command.details);
  return `${lines.join('\n')}\n`;
}

/** Option readers that turn a bad value into a one-line UsageError naming the option. */
export function stringOption(values: OptionValues, name: string): string | undefined {
  const value = values[name];
  return typeof value === 'string' ? value : undefined;
}

export function integerOption(
  values: OptionValues,
  name: string,
  min: number,
  max = Number.MAX_SAFE_INTEGER,
): number | undefined {
  const raw = stringOption(values, name);
  if (raw === undefined) return undefined;
  if (!/^-?\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw new UsageError(`--${name} must be an integer from ${min} to ${max}, got '${raw}'`);
  }
  return Number(raw);
}

export function choiceOption<T extends string>(
  values: OptionValues,
  name: string,
  choices: readonly T[],
): T | undefined {
  const raw = stringOption(values, name);
  if (raw === undefined) return undefined;
  if (!(choices as readonly string[]).includes(raw)) {
    const close = nearestName(raw, choices, 1);
    throw new UsageError(
      `--${name} must be one of ${choices.join(', ')}, got '${raw}'${close ? `; did you mean ${close}?` : ''}`,
    );
  }
  return raw as T;
}
