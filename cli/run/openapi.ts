import { renderOpenApi } from '../../api/openapi.js';
import { formatOf, type RunCommand } from '../command.js';
import { openapiFormats } from '../commands/openapi.js';
import { writeOut } from '../output.js';

/** `evalkit openapi`: the OpenAPI document, JSON or YAML. */
export const run: RunCommand = async (values, io) => {
  await writeOut(io.stdout, renderOpenApi(formatOf(values, openapiFormats)));
  return 0;
};
