import { parse as parseYaml } from 'yaml';
import { isJsonObject as isObject } from '../schemas/json-object.js';
import { operationTable, type OperationId } from '../api/operations.js';

/** A document evalkit diff cannot read: the message names the problem, the CLI adds the file. */
export class DocumentProblem extends Error {}

type Json = Record<string, unknown>;

/** The operation of one document: its path as the document writes it, its object, and the path item's parameters. */
export interface DocumentOperation {
  path: string;
  operation: Json;
  pathParameters: unknown[];
}

/** Reference chains longer than this are a cycle of references only (`A` → `B` → `A`), never a schema. */
const maxRefChain = 64;

/**
 * One OpenAPI 3.0 or 3.1 document, JSON or YAML: its operations found by method and path template, and its local
 * `$ref`s (`#/components/...`) resolved on demand.
 */
export class OpenApiDocument {
  private constructor(private readonly root: Json) {}

  /** Parses the text; a DocumentProblem says why it is not an OpenAPI 3 document. */
  static parse(text: string): OpenApiDocument {
    let data: unknown;
    try {
      data = text.trimStart().startsWith('{') ? JSON.parse(text) : parseYaml(text);
    } catch (error) {
      throw new DocumentProblem(`neither JSON nor YAML (${(error as Error).message.split('\n')[0]})`);
    }
    if (!isObject(data)) throw new DocumentProblem('not an OpenAPI document (no object at the top)');
    if (typeof data.swagger === 'string')
      throw new DocumentProblem(`a Swagger ${data.swagger} document: evalkit diff reads OpenAPI 3.0 and 3.1`);
    if (typeof data.openapi !== 'string' || !data.openapi.startsWith('3.'))
      throw new DocumentProblem('not an OpenAPI 3.0 or 3.1 document (no "openapi": "3.x" field)');
    if (!isObject(data.paths)) throw new DocumentProblem('an OpenAPI document without "paths"');
    return new OpenApiDocument(data);
  }

  /**
   * The document's operation for one of ours: the same method on a path whose segments end with our template's,
   * parameters matched by position whatever their names, so a base path in the paths (`/api/v2/evaluations`) or a
   * renamed path parameter still matches. The shortest such path wins.
   */
  operation(id: OperationId): DocumentOperation | undefined {
    const { method, path } = operationTable[id];
    const wanted = templateSegments(path);
    const paths = this.root.paths as Json;
    const candidates = Object.keys(paths)
      .filter((candidate) => endsWith(templateSegments(candidate), wanted))
      .sort((a, b) => a.length - b.length);
    for (const candidate of candidates) {
      const item = this.resolve(paths[candidate]);
      if (!isObject(item)) continue;
      const found = item[method.toLowerCase()];
      if (isObject(found))
        return {
          path: candidate,
          operation: found,
          pathParameters: Array.isArray(item.parameters) ? item.parameters : [],
        };
    }
    return undefined;
  }

  /** The `$ref` a value is, or undefined. */
  static refOf(value: unknown): string | undefined {
    return isObject(value) && typeof value.$ref === 'string' ? value.$ref : undefined;
  }

  /**
   * The value with its `$ref` chain followed: the target, with the reference's own sibling keywords over it (OpenAPI
   * 3.1). A reference outside the document, or one that leads nowhere or round in a circle, is a DocumentProblem.
   */
  resolve(value: unknown): unknown {
    let current = value;
    for (let step = 0; step < maxRefChain; step++) {
      const ref = OpenApiDocument.refOf(current);
      if (ref === undefined) return current;
      const { $ref: _ref, ...siblings } = current as Json;
      const target = this.pointer(ref);
      current = isObject(target) && Object.keys(siblings).length > 0 ? { ...target, ...siblings } : target;
    }
    throw new DocumentProblem(`the $ref chain through ${OpenApiDocument.refOf(value)} goes round in a circle`);
  }

  private pointer(ref: string): unknown {
    if (!ref.startsWith('#/'))
      throw new DocumentProblem(`the $ref ${ref} points outside the document: bundle it first (redocly bundle)`);
    let at: unknown = this.root;
    for (const raw of ref.slice(2).split('/')) {
      const key = uriDecoded(raw, ref).replace(/~1/g, '/').replace(/~0/g, '~');
      at = isObject(at) || Array.isArray(at) ? (at as Json)[key] : undefined;
      if (at === undefined) throw new DocumentProblem(`the $ref ${ref} leads nowhere`);
    }
    return at;
  }
}

/** A `$ref` token with its %-escapes undone; a malformed one (`%E0`) is a DocumentProblem naming the `$ref`. */
function uriDecoded(token: string, ref: string): string {
  try {
    return decodeURIComponent(token);
  } catch {
    throw new DocumentProblem(`the $ref ${ref} has a malformed %-escape`);
  }
}

/** A path template's segments, every `{name}` as `{}`. */
function templateSegments(path: string): string[] {
  return path
    .split('/')
    .filter(Boolean)
    .map((segment) => (/^\{[^}]*\}$/.test(segment) ? '{}' : segment));
}

function endsWith(segments: string[], tail: string[]): boolean {
  if (segments.length < tail.length) return false;
  const offset = segments.length - tail.length;
  return tail.every((segment, index) => segments[offset + index] === segment);
}
