import { compile } from 'json-schema-to-typescript';
import { resourceForRef, schemaFor, schemaNames, type JsonSchema, type SchemaName } from '../index.js';

/** TypeScript's global `Error` must not be shadowed, so the spec's Error object is typed as ErrorObject. */
const typeNames: Partial<Record<SchemaName, string>> = { Error: 'ErrorObject' };

export function typeNameOf(name: SchemaName): string {
  return typeNames[name] ?? name;
}

/** Replaces each $ref to a sibling schema file with a tsType naming that resource, so each type is declared once. */
function linkSchema(node: unknown): unknown {
  if (!node || typeof node !== 'object') return node;
  const schema = node as JsonSchema;
  if (typeof schema.$ref === 'string') return { tsType: typeNameOf(resourceForRef(schema.$ref)) };
  const linked: JsonSchema = {};
  for (const [keyword, value] of Object.entries(schema)) {
    if (keyword === 'examples') continue;
    if (keyword === 'properties') linked[keyword] = mapValues(value as JsonSchema, linkSchema);
    else if (subschemaKeywords.has(keyword)) linked[keyword] = linkSchema(value);
    else if (Array.isArray(value) && keyword.endsWith('Of')) linked[keyword] = value.map(linkSchema);
    else linked[keyword] = value;
  }
  // A schema that constrains no type (Result.value, the undocumented evaluator_config alternatives) admits any value.
  return shapeKeywords.some((keyword) => keyword in linked) ? linked : { ...linked, tsType: 'unknown' };
}

const subschemaKeywords = new Set(['items', 'additionalProperties', 'not']);
const shapeKeywords = ['type', 'anyOf', 'oneOf', 'allOf', 'properties', 'items', 'enum', 'const', 'tsType'];

function mapValues(record: JsonSchema, map: (value: unknown) => unknown): JsonSchema {
  return Object.fromEntries(Object.entries(record).map(([key, value]) => [key, map(value)]));
}

/** The source of types/resources.ts, rendered from schemas/ by json-schema-to-typescript. */
export async function renderResourceTypes(): Promise<string> {
  const parts: string[] = [
    '/* Generated from schemas/ by `npm run types`. Do not edit: a test fails when this file and the schemas differ. */',
  ];
  for (const name of schemaNames) {
    const schema = linkSchema(schemaFor(name)) as JsonSchema;
    const { $id: _id, $schema: _dialect, ...rest } = schema;
    const ts = await compile({ ...rest, title: typeNameOf(name) } as Parameters<typeof compile>[0], typeNameOf(name), {
      bannerComment: '',
      additionalProperties: true,
      strictIndexSignatures: false,
      format: true,
      unknownAny: true,
      style: { singleQuote: true, printWidth: 120 },
    });
    parts.push(ts.trim());
  }
  return `${parts.join('\n\n')}\n`;
}
