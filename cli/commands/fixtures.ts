import { recordFolder } from '../../api/operations.js';
import { profiles } from '../../generators/profile.js';
import { resourceNames } from '../../schemas/index.js';
import { formatOption, type Command } from '../command.js';

/** What `evalkit fixtures --format` writes, the default first. */
export const fixturesFormats = ['json', 'ndjson'] as const;

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
    formatOption(fixturesFormats, 'A JSON array per resource, or one JSON document per line.'),
    {
      name: 'out',
      type: 'string',
      value: 'DIR',
      description:
        `Write into DIR instead of stdout: HumanEvaluations as DIR/${recordFolder}/<id>.json, what ` +
        '`evalkit mock --fixtures DIR` serves; every other resource as one file (e.g. DIR/evaluation.ndjson).',
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
  load: () => import('../run/fixtures.js'),
};
