import { formatOption, type Command } from '../command.js';

/** What `evalkit openapi --format` prints, the default first. */
export const openapiFormats = ['json', 'yaml'] as const;

export const openapiCommand: Command = {
  name: 'openapi',
  summary: 'Print the OpenAPI 3.1 document of both operations, assembled from the JSON Schemas.',
  options: [formatOption(openapiFormats)],
  load: () => import('../run/openapi.js'),
};
