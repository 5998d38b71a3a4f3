import {
  embedSchema,
  errorBodySchemas,
  schemaFor,
  schemaNames,
  type JsonSchema,
  type SchemaName,
} from '../schemas/index.js';
import { operationIds, operationTable, type OperationId } from './operations.js';
import { evalkitVersion } from './version.js';

function componentRef(name: SchemaName): string {
  return `#/components/schemas/${name}`;
}

function firstExample(name: SchemaName): unknown {
  return (schemaFor(name).examples as unknown[] | undefined)?.[0];
}

function jsonContent(name: SchemaName, example: unknown) {
  return { 'application/json': { schema: { $ref: componentRef(name) }, example } };
}

/** The 422 example whose problem lies where the operation takes its input (`path` or `body`): what Prism serves it. */
function validationExample(input: 'path' | 'body'): unknown {
  const examples = errorBodySchemas.HTTPValidationError.examples as Array<{ detail: Array<{ loc: unknown[] }> }>;
  return examples.find((example) => example.detail[0]?.loc[0] === input);
}

/**
 * The spec shows no error status, code or body; these are what the service sends, FastAPI's (docs/decisions.md, #3):
 * declared so that response validators accept the mock's errors and Prism serves error bodies.
 */
function errorResponses(input: 'path' | 'body') {
  return {
    '422': {
      description:
        'The request does not fit the schema: each problem with its location. ' +
        "Not shown by the spec; FastAPI's answer, as the service sends it.",
      content: jsonContent('HTTPValidationError', validationExample(input)),
    },
    default: {
      description:
        'Any other error (400, 401, 403, 404, 405, 413, 415, 429, 500, 503, ...). ' +
        "Not shown by the spec: status codes and error bodies are FastAPI's, as the service sends them; " +
        'see docs/decisions.md.',
      content: jsonContent('HTTPError', firstExample('HTTPError')),
    },
  };
}

/**
 * Authentication is not shown by the spec. The open-source service takes none and the hosted one an API key in
 * `Authorization` (domain notes): both are declared, the empty requirement first, so a key is optional.
 */
export const apiKey = {
  type: 'apiKey',
  in: 'header',
  name: 'Authorization',
  description:
    'Not shown by the spec: the hosted service takes an API key here; ' +
    "the open-source one and evalkit's mock need none.",
};

/** The status code the spec does not show, and the answer the service sends with it. */
const successNote = 'The spec does not show the status code; 200 is what the service sends.';

/** One operation's OpenAPI path item, from the API surface table. */
function pathItem(id: OperationId) {
  const definition = operationTable[id];
  const { resource, array } = definition.response;
  const example = firstExample(resource);
  const parameter = 'parameter' in definition ? definition.parameter : undefined;
  const request = 'request' in definition ? definition.request : undefined;
  const operation = {
    operationId: id,
    summary: definition.summary,
    description: definition.description,
    tags: ['evaluations'],
    ...(parameter && {
      parameters: [
        {
          name: parameter.name,
          in: 'path',
          required: true,
          description: parameter.description,
          schema: { type: 'string' },
          example: (example as { id: string }).id,
        },
      ],
    }),
    ...(request && {
      requestBody: { required: true, content: jsonContent(request, firstExample(request)) },
    }),
    responses: {
      '200': array
        ? {
            description: `A JSON array of ${resource}. ${successNote}`,
            content: {
              'application/json': {
                schema: { type: 'array', items: { $ref: componentRef(resource) } },
                example: [example],
              },
            },
          }
        : { description: `One ${resource}. ${successNote}`, content: jsonContent(resource, example) },
      ...errorResponses(parameter ? 'path' : 'body'),
    },
  };
  return { [definition.method.toLowerCase()]: operation };
}

/** Any JSON value, one alternative per JSON type: what a generator can draw from. */
const anyJsonValue = [
  // `{}` rather than `true`: the same values, but Orval's mock draws properties from a schema and drops an object
  // alternative it can draw nothing for (docs/generators.md).
  { type: 'object', additionalProperties: {} },
  { type: 'array', items: {} },
  { type: 'string' },
  { type: 'number' },
  { type: 'boolean' },
  { type: 'null' },
];

/**
 * A component as generators take it. A schema that only says what a value is not (UndocumentedEvaluatorConfig, `not`
 * EvaluatorConfig) gives them nothing to draw: Kubb's faker made `undefined` of it, Orval `unknown`. Beside the
 * documented alternative it stands for any other JSON value, so the document spells it as any JSON value, one
 * alternative per type: the anyOf that holds it accepts exactly the instances it accepted, and generators draw an
 * object, an array, a string, a number, a boolean or null. schemas/ keeps the `not`, which tells the two apart.
 */
function drawable(name: SchemaName): unknown {
  const schema = embedSchema(schemaFor(name), componentRef) as JsonSchema;
  if (!('not' in schema) || Object.keys(schema).some((keyword) => keyword === 'type' || keyword.endsWith('Of')))
    return schema;
  const { not: _not, ...rest } = schema;
  return {
    ...rest,
    description:
      'Stands for the alternatives of AggregatedResult.evaluator_config that the spec declares (anyOf) but does not ' +
      "show: any JSON value. evalkit's validators (schemas/) tell it from EvaluatorConfig with `not`; it is spelt " +
      'here as one alternative per JSON type so that generators can draw from it.',
    anyOf: anyJsonValue,
  };
}

/**
 * The OpenAPI 3.1 document of the two operations, assembled from schemas/ on every call: the components are the
 * schemas themselves (but for `drawable`), so the document cannot drift from them. No `jsonSchemaDialect`: OpenAPI
 * 3.1's default dialect is already 2020-12 with OpenAPI's vocabulary, and Optic's default mode refuses the field.
 */
export function openApiDocument(): Record<string, unknown> {
  return {
    openapi: '3.1.0',
    info: {
      title: 'Evaluation Service',
      version: evalkitVersion,
      description:
        'Fetch a single human evaluation by its identifier, ' +
        'and create evaluations of application variants against a test set. ' +
        'Generated by evalkit from its JSON Schemas.',
      contact: { name: 'evalkit', url: 'https://github.com/evalkit/evalkit' },
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [{ url: 'http://127.0.0.1:4010', description: 'evalkit mock (npx evalkit mock)' }],
    tags: [{ name: 'evaluations', description: 'Human evaluations and evaluations of application variants.' }],
    paths: Object.fromEntries(operationIds.map((id) => [operationTable[id].path, pathItem(id)])),
    security: [{}, { apiKey: [] }],
    components: {
      schemas: Object.fromEntries(schemaNames.map((name) => [name, drawable(name)])),
      securitySchemes: { apiKey },
    },
  };
}

/** The document as JSON text, as `evalkit openapi` and the control room serve it. */
export function openApiJson(): string {
  return `${JSON.stringify(openApiDocument(), null, 2)}\n`;
}
