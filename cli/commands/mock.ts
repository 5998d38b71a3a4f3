import { profiles } from '../../generators/index.js';
import { controlPrefix } from '../../mock/control/admin-routes.js';
import { maxJournalSize } from '../../mock/control/control-room.js';
import { defaultJournalSize } from '../../mock/control/journal.js';
import { faults } from '../../mock/core/faults.js';
import { boundHeapGrowth } from '../heap-growth.js';
import { listenFailure } from '../listen-failure.js';
import { MockSetupError, scenarioCodes, startMockServer, type MockServerOptions } from '../../mock/index.js';
import { scenarioEntry, scenarioKeys, type ScenarioKey } from '../../mock/core/scenarios.js';
import { choiceOption, integerOption, stringOption, UsageError, type Command, type OptionValues } from '../command.js';
import { writeOut } from '../output.js';
import { shutdownSignal } from '../shutdown.js';

/** Scenario flags: each is the scenario key of the same name, checked by the scenario parser. */
const scenarioFlags = ['state', 'code', 'latency', 'fault'] as const satisfies readonly ScenarioKey[];

function scenarioOptions(values: OptionValues): Record<string, string | boolean> {
  const scenario: Record<string, string | boolean> = {};
  for (const key of scenarioFlags) {
    const value = stringOption(values, key);
    if (value === undefined) continue;
    try {
      scenarioEntry(key, value);
    } catch (error) {
      throw new UsageError(`--${key}: ${(error as Error).message}`);
    }
    scenario[key] = value;
  }
  if (values.nullable === true) scenario.nullable = true;
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
  return origins && !origins.includes('*') ? origins : '*';
}

export const mockCommand: Command = {
  name: 'mock',
  summary: 'Run a mock Evaluation Service: both operations, seeded bodies, scenarios, fixtures, CORS.',
  options: [
    {
      name: 'port',
      type: 'string',
      value: 'N',
      description: 'Port to listen on; 0 picks a free one.',
      defaultText: '4010',
    },
    { name: 'host', type: 'string', value: 'HOST', description: 'Interface to listen on.', defaultText: '127.0.0.1' },
    {
      name: 'base-path',
      type: 'string',
      value: 'PATH',
      description: 'Serve both operations under PATH, e.g. /api.',
      defaultText: 'none',
    },
    {
      name: 'seed',
      type: 'string',
      value: 'S',
      description: 'Seed of generated bodies: the same seed and id give the same body.',
      defaultText: '1',
    },
    {
      name: 'profile',
      type: 'string',
      value: 'P',
      description: `Profile of generated bodies: ${profiles.join(', ')}.`,
      defaultText: 'mixed',
    },
    {
      name: 'fixtures',
      type: 'string',
      value: 'DIR',
      description: 'Serve DIR/human-evaluations/<id>.json (all validated at start-up).',
    },
    { name: 'strict-ids', type: 'boolean', description: 'With --fixtures: 404 for ids that have no fixture file.' },
    {
      name: 'latency',
      type: 'string',
      value: 'MS|MIN-MAX',
      description: 'Wait before every answer: fixed, or uniform in a range.',
    },
    {
      name: 'state',
      type: 'string',
      value: 'STATE',
      description: 'Lifecycle state served, e.g. EVALUATION_FAILED or failed.',
      defaultText: 'EVALUATION_INITIALIZED for created evaluations',
    },
    {
      name: 'code',
      type: 'string',
      value: 'N',
      description: `Answer every request with this status: ${scenarioCodes.join(', ')}.`,
    },
    {
      name: 'fault',
      type: 'string',
      value: faults.join('|'),
      description: 'Break every answer: reset the connection or truncate the body.',
    },
    {
      name: 'nullable',
      type: 'boolean',
      description: 'Send absent optional fields as null, as real deployments do (outside the spec).',
    },
    {
      name: 'scenarios',
      type: 'string',
      value: 'FILE',
      description: 'JSON scenario config: server-wide, per operation, per id (see docs/mock.md).',
    },
    {
      name: 'cors-origin',
      type: 'string',
      value: 'ORIGIN',
      multiple: true,
      description: 'Allow only this browser origin.',
      defaultText: 'any (*)',
    },
    { name: 'no-cors', type: 'boolean', description: 'Send no CORS headers and answer no preflight.' },
    { name: 'quiet', type: 'boolean', description: 'No request log (one line per request on stderr otherwise).' },
    {
      name: 'journal-size',
      type: 'string',
      value: 'N',
      description: `Requests the control room's journal keeps (GET /__evalkit/requests), 1 to ${maxJournalSize}.`,
      defaultText: String(defaultJournalSize),
    },
    {
      name: 'no-journal',
      type: 'boolean',
      description: 'Keep no request journal (the rest of the control room stays).',
    },
  ],
  details: [
    'Per request, a Prefer header overrides the server scenario key by key, e.g.',
    `  Prefer: code=404        Prefer: state=failed, latency=200        Prefer: fault=reset`,
    `Keys: ${scenarioKeys.join(', ')}. Stop with Ctrl-C (SIGINT) or SIGTERM.`,
    `Control room (journal, events, scenario at run time, dashboard): ${controlPrefix}/ at the root, whatever --base-path.`,
  ].join('\n'),
  async run(values) {
    const quiet = values.quiet === true;
    const port = integerOption(values, 'port', 0, 65535) ?? 4010;
    const host = stringOption(values, 'host') ?? '127.0.0.1';
    const options: MockServerOptions = {
      port,
      host,
      basePath: stringOption(values, 'base-path'),
      seed: stringOption(values, 'seed'),
      profile: choiceOption(values, 'profile', profiles),
      fixturesDir: stringOption(values, 'fixtures'),
      strictIds: values['strict-ids'] === true,
      scenario: scenarioOptions(values),
      scenarioFile: stringOption(values, 'scenarios'),
      cors: corsOption(values),
      journalSize: journalSizeOption(values),
      log: quiet ? undefined : (line) => process.stderr.write(`${line}\n`),
    };
    boundHeapGrowth();
    let server;
    try {
      server = await startMockServer(options);
    } catch (error) {
      if (error instanceof MockSetupError) throw new UsageError(error.message);
      const failure = listenFailure(error, host, port);
      if (failure !== undefined) {
        process.stderr.write(`evalkit mock: ${failure}\n`);
        return 1;
      }
      throw error;
    }
    const stopping = shutdownSignal();
    await writeOut(
      `evalkit mock listening on ${server.url}\ncontrol room: ${new URL(server.url).origin}${controlPrefix}/\n`,
    );
    const signal = await stopping;
    await server.close();
    if (!quiet) process.stderr.write(`evalkit mock: stopped (${signal})\n`);
    return 0;
  },
};
