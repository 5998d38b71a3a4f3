import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, isAbsolute, join, relative } from 'node:path';
import { profiles } from '../../generators/profile.js';
import { isLoopbackHost, type AllowedHosts } from '../../mock/control/allowed-hosts.js';
import { maxJournalSize } from '../../mock/control/journal.js';
import { controlPrefix } from '../../mock/control/prefix.js';
import { normalizeBasePath } from '../../mock/core/options.js';
import { scenarioEntry, shownName, type ScenarioKey } from '../../mock/core/scenarios.js';
import { MockSetupError, startMockServer, type MockServerOptions } from '../../mock/index.js';
import {
  choiceOption,
  CommandFailure,
  integerOption,
  stringOption,
  UsageError,
  type OptionValues,
  type RunCommand,
} from '../command.js';
import { boundHeapGrowth } from '../heap-growth.js';
import { listenFailure } from '../listen-failure.js';
import { pseudonymizerOf } from '../pseudonymizer-option.js';
import { listenAddress } from '../listen-options.js';
import { writeOut } from '../output.js';
import { defaultMockHost, defaultMockPort } from '../../mock/node/defaults.js';

/** Scenario flags: each is the scenario key of the same name, checked by the scenario parser. */
const scenarioFlags = [
  'state',
  'code',
  'latency',
  'fault',
  'now',
  'era',
  'progress',
] as const satisfies readonly ScenarioKey[];

/** A flag's value as `check` reads it; what it refuses is a usage error whose one line names the flag. */
function flagValue<T>(flag: string, value: string | undefined, check: (value: string) => T): T | undefined {
  if (value === undefined) return undefined;
  try {
    return check(value);
  } catch (error) {
    if (error instanceof MockSetupError) throw new UsageError(`--${flag}: ${error.message}`);
    throw error;
  }
}

function scenarioOptions(values: OptionValues): Record<string, string | boolean> {
  const scenario: Record<string, string | boolean> = {};
  for (const key of scenarioFlags) {
    const value = flagValue(key, stringOption(values, key), (text) => (scenarioEntry(key, text), text));
    if (value !== undefined) scenario[key] = value;
  }
  if (values.nullable === true) scenario.nullable = true;
  // Without an era (here or in --scenarios), the mock's options refuse it: a usage error naming --era.
  if (values['era-dates'] === true) scenario.eraDates = true;
  return scenario;
}

function journalSizeOption(values: OptionValues): number | undefined {
  const size = integerOption(values, 'journal-size', 1, maxJournalSize);
  if (values['no-journal'] !== true) return size;
  if (size !== undefined) throw new UsageError('--no-journal and --journal-size contradict each other; pass one');
  return 0;
}

function corsOption(values: OptionValues): MockServerOptions['cors'] {
  const origins = values['cors-origin'] as string[] | undefined;
  if (values['no-cors'] === true) {
    if (origins) throw new UsageError('--no-cors and --cors-origin contradict each other; pass one');
    return false;
  }
  // The mock checks each origin (mock/core/cors.ts), for library callers too.
  return origins ?? '*';
}

/** `--allowed-hosts a,b` (repeatable) as a list, or true for `all` / `true`; the names are checked by the server. */
function allowedHostsOption(values: OptionValues): AllowedHosts | undefined {
  const given = values['allowed-hosts'] as string[] | undefined;
  if (given === undefined) return undefined;
  const names = given.flatMap((value) => value.split(',')).map((name) => name.trim());
  if (names.some((name) => name === 'all' || name === 'true')) return true;
  if (names.some((name) => name === '')) throw new UsageError('--allowed-hosts: an empty host name');
  return names;
}

/** What the user should know of who can reach the control room, when it is more than this machine. */
function exposureWarnings(host: string, allowedHosts: AllowedHosts | undefined): string[] {
  const warnings: string[] = [];
  if (allowedHosts === true)
    warnings.push(
      `evalkit mock: warning: --allowed-hosts all: the control room (${controlPrefix}/) answers any Host name, so a ` +
        'web page can read the journal and change the scenario through DNS rebinding',
    );
  if (!isLoopbackHost(host) && allowedHosts === undefined)
    warnings.push(
      `evalkit mock: --host ${host} exposes the API to the network; the control room answers this machine only ` +
        "(list this machine's addresses with --allowed-hosts to reach it from elsewhere)",
    );
  return warnings;
}

/**
 * The folder --fixtures names. Outside a checkout, `--fixtures fixtures/mock` (the folder evalkit ships) is not in the
 * project: the refusal names the installed copy, where a bare "not a readable folder" left the user guessing (and in a
 * checkout, the installed path names the checkout's).
 */
function fixturesOption(values: OptionValues): string | undefined {
  const dir = stringOption(values, 'fixtures');
  if (dir === undefined || isAbsolute(dir) || existsSync(dir)) return dir;
  const root = dirname(createRequire(import.meta.url).resolve('evalkit/package.json'));
  // The README's installed path, typed in a checkout, names the checkout's own folder.
  const shipped = [dir, dir.replace(/^(?:\.\/)?node_modules\/evalkit\//, '')]
    .map((path) => join(root, path))
    .find(existsSync);
  if (shipped === undefined) return dir;
  throw new UsageError(
    `--fixtures: no folder ${shownName(dir)} here; ` +
      `did you mean ${relative('.', shipped) || '.'} (the fixtures evalkit ships)?`,
  );
}

/** `evalkit mock`: the mock server, until SIGINT or SIGTERM. */
export const run: RunCommand = async (values, io) => {
  const quiet = values.quiet === true;
  const { port, host } = listenAddress(values, { port: defaultMockPort, host: defaultMockHost });
  const allowedHosts = allowedHostsOption(values);
  if (values.pseudonymize === true && values['no-journal'] === true)
    throw new UsageError('--pseudonymize rewrites the journal, and --no-journal keeps none: drop one');
  const pseudonymizer = await pseudonymizerOf(values, io);
  const options: MockServerOptions = {
    port,
    host,
    basePath: flagValue('base-path', stringOption(values, 'base-path'), normalizeBasePath),
    seed: flagValue('seed', stringOption(values, 'seed'), (text) => (scenarioEntry('seed', text), text)),
    profile: choiceOption(values, 'profile', profiles),
    fixturesDir: fixturesOption(values),
    strictIds: values['strict-ids'] === true,
    scenario: scenarioOptions(values),
    scenarioFile: stringOption(values, 'scenarios'),
    cors: corsOption(values),
    journalSize: journalSizeOption(values),
    allowedHosts,
    passthrough: stringOption(values, 'passthrough'),
    ...(pseudonymizer && { pseudonymizer }),
    log: quiet ? undefined : (line) => io.stderr.write(`${line}\n`),
    problems: (line) => io.stderr.write(`${line}\n`),
  };
  boundHeapGrowth();
  let server;
  try {
    server = await startMockServer(options);
  } catch (error) {
    if (error instanceof MockSetupError) throw new UsageError(error.message);
    const failure = listenFailure(error, host, port);
    if (failure !== undefined) throw new CommandFailure(failure);
    throw error;
  }
  for (const warning of exposureWarnings(host, allowedHosts)) io.stderr.write(`${warning}\n`);
  const stopping = io.untilShutdown();
  await writeOut(
    io.stdout,
    `evalkit mock listening on ${server.url}\ncontrol room: ${new URL(server.url).origin}${controlPrefix}/\n`,
  );
  const signal = await stopping;
  await server.close();
  if (!quiet) io.stderr.write(`evalkit mock: stopped (${signal})\n`);
  return 0;
};
