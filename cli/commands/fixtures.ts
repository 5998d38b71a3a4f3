import { recordFolder } from '../../api/operations.js';
import { profiles } from '../../generators/profile.js';
import { resourceNames } from '../../schemas/index.js';
import { formatOption, type Command } from '../command.js';
import { pseudonymOptions } from '../pseudonym-options.js';

/** What `evalkit fixtures --format` writes, the default first. */
export const fixturesFormats = ['json', 'ndjson'] as const;

export const fixturesCommand: Command = {
  name: 'fixtures',
  summary:
    'Generate valid, deterministic fixtures for every resource (or invalid create requests with --invalid); ' +
    'write them from a recording (--from); scan a folder for personal values left in clear (scan DIR).',
  operands: ['[scan DIR]'],
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
    {
      name: 'from',
      type: 'string',
      value: 'PATH',
      description:
        'Instead of generating, write what a recording holds into --out: a saved GET /__evalkit/requests ' +
        `(evalkit mock) or an evalkit proxy --record folder, as DIR/${recordFolder}/<id>.json and ` +
        'DIR/requests.jsonl.',
    },
    ...pseudonymOptions('With --from, write'),
    {
      name: 'against',
      type: 'string',
      value: 'PATH',
      description:
        'With scan DIR: the recording (journal export or --record folder) whose personal values DIR must not hold ' +
        'in clear, in any encoding: exit 1 naming each file and field that does.',
    },
  ],
  details: [
    'Profiles: minimal (required fields only), full (every optional field), mixed (each optional field at random),',
    'edge (empty arrays, unicode and very long strings, error Results, boundary integers).',
    'To stdout, several resources print as one JSON object keyed by resource (json) or as',
    '{"schema": NAME, "instance": ...} lines (ndjson).',
    'evalkit fixtures scan DIR --against PATH: exit 0 when no file under DIR holds a personal value PATH holds in',
    'clear, 1 when one does (each named), 2 for a bad folder or recording.',
  ].join('\n'),
  load: () => import('../run/fixtures.js'),
};
