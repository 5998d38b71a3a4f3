import { formatOption, type Command } from '../command.js';

/** What `evalkit diff --format` prints, the default first. */
export const diffFormats = ['text', 'json', 'markdown', 'github'] as const;

export const diffCommand: Command = {
  name: 'diff',
  summary: 'Compare two OpenAPI documents: every change to the two operations, and which break a client.',
  operands: ['OLD', 'NEW'],
  options: [
    {
      name: 'traffic',
      type: 'string',
      value: 'PATH',
      description:
        'A saved GET /__evalkit/requests (evalkit mock) or an evalkit proxy --record folder: ' +
        'how many recorded requests or answers each breaking change touches.',
    },
    {
      name: 'ignore',
      type: 'string',
      value: 'FILE',
      description:
        'Changes accepted after review, by the id each report prints (one a line, # comments): still listed, no ' +
        'longer failing the run.',
    },
    formatOption(diffFormats),
  ],
  details: [
    'OLD and NEW: OpenAPI 3.0 or 3.1 documents, JSON or YAML; operations are matched by method and path template.',
    'Exit codes: 0 nothing breaks a client; 1 something does; 2 a usage error (a file missing or not OpenAPI).',
    'The direction rules, and what --traffic counts: docs/diff.md.',
  ].join('\n'),
  load: () => import('../run/diff.js'),
};
