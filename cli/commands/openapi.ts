import { renderOpenApi } from '../../api/openapi.js';
import { choiceOption, type Command } from '../command.js';
import { writeOut } from '../output.js';

export const openapiCommand: Command = {
  name: 'openapi',
  summary: 'Print the OpenAPI 3.1 document of both operations, assembled from the JSON Schemas.',
  options: [{ name: 'format', type: 'string', value: 'json|yaml', description: 'Output format.', defaultText: 'json' }],
  async run(values) {
    await writeOut(renderOpenApi(choiceOption(values, 'format', ['json', 'yaml'] as const) ?? 'json'));
    return 0;
  },
};
