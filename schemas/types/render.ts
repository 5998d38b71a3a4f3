import { compile } from 'json-schema-to-typescript';
import { resourceForRef, schemaFor, schemaNames, type JsonSchema, type SchemaName } from '../index.js';

/** TypeScript's global `Error` must not be shadowed, so the spec's Error object is typed as ErrorObject. */
const typeNames: Partial<Record<SchemaName, string>> = { Error: 'ErrorObject' };

function typeNameOf(name: SchemaName): string {
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
    if (keyword === 'description' && typeof value === 'string') linked[keyword] = value.replace(operationLabel, '');
    else if (keyword === 'properties') linked[keyword] = mapValues(value as JsonSchema, linkSchema);
    else if (subschemaKeywords.has(keyword)) linked[keyword] = linkSchema(value);
    else if (Array.isArray(value) && keyword.endsWith('Of')) linked[keyword] = value.map(linkSchema);
    else linked[keyword] = value;
  }
  if (shapeKeywords.some((keyword) => keyword in linked)) return linked;
  // A schema that only excludes (the undocumented evaluator_config alternatives) is some JSON value: typed as one, not
  // as `unknown`, so a union with it still needs a guard, not a cast. One that constrains nothing (Result.value)
  // admits any value.
  return { ...linked, tsType: 'not' in linked ? jsonValueType : 'unknown' };
}

/** Any JSON value, one level deep: what a schema that only says what a value is not admits. */
const jsonValueType = 'Record<string, unknown> | unknown[] | string | number | boolean | null';

/**
 * `(GET /path)` after an operation's name in a description: the comment keeps the name, which says which operation,
 * and leaves the path to the OpenAPI document.
 */
const operationLabel = / \((?:GET|POST|PUT|PATCH|DELETE) \/[^)]*\)/g;

/** The widest line the house allows (prettier's printWidth, eslint's max-len). */
const width = 120;

/** Wraps each JSDoc line wider than the house allows at word boundaries, keeping its ` * ` prefix. */
function wrapComments(source: string): string {
  return source
    .split('\n')
    .flatMap((line) => {
      const comment = /^(\s*\* )(.*)$/.exec(line);
      if (!comment || line.length <= width) return [line];
      const [, prefix = '', text = ''] = comment;
      const lines: string[] = [];
      let current = '';
      for (const word of text.split(' ')) {
        if (current && prefix.length + current.length + 1 + word.length > width) {
          lines.push(prefix + current);
          current = word;
        } else current = current ? `${current} ${word}` : word;
      }
      return [...lines, prefix + current];
    })
    .join('\n');
}

const subschemaKeywords = new Set(['items', 'additionalProperties', 'not']);
const shapeKeywords = ['type', 'anyOf', 'oneOf', 'allOf', 'properties', 'items', 'enum', 'const', 'tsType'];

function mapValues(record: JsonSchema, map: (value: unknown) => unknown): JsonSchema {
  return Object.fromEntries(Object.entries(record).map(([key, value]) => [key, map(value)]));
}

/** The source of types/resources.ts, rendered from schemas/ by json-schema-to-typescript. */
export async function renderResourceTypes(): Promise<string> {
  const parts: string[] = [
    '/* Generated from schemas/ by `npm run types`. ' +
      'Do not edit: a test fails when this file and the schemas differ. */',
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
      style: { singleQuote: true, printWidth: width },
    });
    parts.push(wrapComments(ts.trim()));
  }
  const entries = schemaNames.map((name) => `  ${name}: ${typeNameOf(name)};`);
  parts.push(
    [
      "/** Each schema's type by its name in schemas/: the OpenAPI components, which api/paths.ts builds on. */",
      'export interface Schemas {',
      ...entries,
      '}',
    ].join('\n'),
  );
  return `${parts.join('\n\n')}\n`;
}
