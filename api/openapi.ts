import { stringify } from 'yaml';
import { openApiDocument, openApiJson } from './openapi-document.js';

export { openApiDocument, openApiJson } from './openapi-document.js';
export type { components, operations, paths } from './paths.js';

export type OpenApiFormat = 'json' | 'yaml';

/**
 * The document as text. YAML lives here, apart from the document, so code that serves only JSON (the control room, in
 * a browser bundle too) does not carry a YAML writer.
 */
export function renderOpenApi(format: OpenApiFormat): string {
  return format === 'yaml' ? stringify(openApiDocument(), { aliasDuplicateObjects: false }) : openApiJson();
}
