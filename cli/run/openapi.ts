import { renderOpenApi } from '../../api/openapi.js';
import { choiceOption, type RunCommand } from '../command.js';
import { writeOut } from '../output.js';

/** `evalkit openapi`: the OpenAPI document, JSON or YAML. */
export const run: RunCommand = async (values, io) => {
  await writeOut(io.stdout, renderOpenApi(choiceOption(values, 'format', ['json', 'yaml'] as const) ?? 'json'));
  return 0;
};
