import { profiles } from '../../generators/index.js';
import { writeFixtures, writeFixturesToDir } from '../fixtures/write-fixtures.js';
import { isResourceName, resourceNames, type ResourceName } from '../../schemas/index.js';
import { choiceOption, integerOption, stringOption, UsageError, type Command } from '../command.js';
import { writeOut } from '../output.js';

function resources(values: Record<string, unknown>): ResourceName[] {
  const name = stringOption(values as never, 'schema');
  if (name === undefined) return resourceNames;
  if (!isResourceName(name)) throw new UsageError(`--schema must be one of ${resourceNames.join(', ')}, got '${name}'`);
  return [name];
}

export const fixturesCommand: Command = {
  name: 'fixtures',
  summary: 'Generate valid, deterministic fixtures for every resource (or invalid create requests with --invalid).',
  options: [
    {
      name: 'schema',
      type: 'string',
      value: 'NAME',
      description: `One resource: ${resourceNames.join(', ')}.`,
      defaultText: 'all',
    },
    { name: 'count', type: 'string', value: 'N', description: 'Instances per resource.', defaultText: '10' },
    {
      name: 'seed',
      type: 'string',
      value: 'S',
      description: 'Seed (any string or number): the same seed gives byte-identical output.',
      defaultText: '1',
    },
    {
      name: 'profile',
      type: 'string',
      value: 'P',
      description: `Profile: ${profiles.join(', ')}.`,
      defaultText: 'mixed',
    },
    {
      name: 'format',
      type: 'string',
      value: 'json|ndjson',
      description: 'A JSON array per resource, or one JSON document per line.',
      defaultText: 'json',
    },
    {
      name: 'out',
      type: 'string',
      value: 'DIR',
      description: 'Write one file per resource into DIR (e.g. DIR/evaluation.ndjson) instead of stdout.',
    },
    {
      name: 'invalid',
      type: 'boolean',
      description:
        'Write create-request bodies that each break exactly one schema rule, as {rule, pointer, keyword, body}.',
    },
  ],
  details: [
    'Profiles: minimal (required fields only), full (every optional field), mixed (each optional field at random),',
    'edge (empty arrays, unicode and very long strings, error Results, boundary integers).',
    'To stdout, several resources print as one JSON object keyed by resource (json) or as',
    '{"schema": NAME, "instance": ...} lines (ndjson).',
  ].join('\n'),
  async run(values) {
    const count = integerOption(values, 'count', 0, 1_000_000) ?? 10;
    const seed = stringOption(values, 'seed') ?? '1';
    const profile = choiceOption(values, 'profile', profiles) ?? 'mixed';
    const format = choiceOption(values, 'format', ['json', 'ndjson'] as const) ?? 'json';
    const out = stringOption(values, 'out');
    const invalid = values.invalid === true;
    if (
      invalid &&
      stringOption(values, 'schema') !== undefined &&
      stringOption(values, 'schema') !== 'CreateEvaluationRequest'
    ) {
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
    if (out === undefined) await writeFixtures(plan, writeOut);
    else for (const file of await writeFixturesToDir(plan, out)) process.stderr.write(`wrote ${file}\n`);
    return 0;
  },
};
