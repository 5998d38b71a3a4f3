import type { Command } from '../command.js';

export const openapiCommand: Command = {
  name: 'openapi',
  summary: 'Print the OpenAPI 3.1 document of both operations, assembled from the JSON Schemas.',
  options: [{ name: 'format', type: 'string', value: 'json|yaml', description: 'Output format.', defaultText: 'json' }],
  load: () => import('../run/openapi.js'),
};
