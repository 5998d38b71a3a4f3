import { Lexer, parse as parseYaml } from 'yaml';
import { isJsonObject as isObject } from '../schemas/json-object.js';
import { escapeControlCharacters } from '../http/redaction.js';
import { walkJson } from '../http/json-walk.js';
import { operationTable, type OperationId } from '../api/operations.js';

/** A document evalkit diff cannot read, or a schema in it that it refuses: the message names the file and why. */
export class DocumentProblem extends Error {
  constructor(message: string) {
    // One line, whatever the file's name or the document's keys hold (a newline in a property's name).
    super(escapeControlCharacters(message));
  }
}

type Json = Record<string, unknown>;

/** The operation of one document: its path as the document writes it, its object, and the path item's parameters. */
export interface DocumentOperation {
  path: string;
  operation: Json;
  pathParameters: unknown[];
  /**
   * The path a client calls: the base path of the server URL that applies (the operation's, its path item's, or the
   * document's; its first) before the path as the document writes it.
   */
  servedPath: string;
  /** The security requirements that apply (the operation's, else the document's); undefined for none declared. */
  security: unknown[] | undefined;
}

/**
 * Deeper than this, a document is refused as it is read: no real API nests so far, and reading it further would cost
 * the engine's stack (JSON.stringify, the YAML parser) rather than give an answer.
 */
const maxNesting = 500;

/**
 * Whether YAML flow collections (`{...}`, `[...]`) nest deeper than maxNesting in the text, by YAML's own lexer: it
 * knows quoted text, block scalars and comments, and walks without recursion. The parser would recurse that deep,
 * to the end of its stack, before the depth could be refused. A text with too few brackets to nest so deep is not
 * lexed.
 */
function flowNestsTooDeep(text: string): boolean {
  let openers = 0;
  for (let at = 0; at < text.length && openers <= maxNesting; at++) {
    const code = text.charCodeAt(at);
    if (code === 0x7b || code === 0x5b) openers++;
  }
  if (openers <= maxNesting) return false;
  let depth = 0;
  for (const token of new Lexer().lex(text)) {
    if (token === '{' || token === '[') {
      if (++depth > maxNesting) return true;
    } else if ((token === '}' || token === ']') && depth > 0) depth--;
  }
  return false;
}

/** A pointer as a message shows it: a long one (a deep document's) keeps its two ends. */
function shortPointer(pointer: string): string {
  return pointer.length <= 200 ? pointer : `${pointer.slice(0, 100)}…${pointer.slice(-90)}`;
}

/** A JSON pointer token (RFC 6901): `~` and `/` escaped. */
const token = (key: string) => key.replace(/~/g, '~0').replace(/\//g, '~1');

/** The value at an own key: never what every object inherits (`constructor`, `__proto__`, `toString`). */
function own(value: unknown, key: string): unknown {
  if (Array.isArray(value)) return /^(0|[1-9]\d*)$/.test(key) ? value[Number(key)] : undefined;
  return isObject(value) && Object.hasOwn(value, key) ? value[key] : undefined;
}

/**
 * One OpenAPI 3.0 or 3.1 document, JSON or YAML: its operations found by method and path template, and its local
 * `$ref`s (`#/components/...`) resolved on demand, each once. Every object in it has a JSON pointer, for messages.
 */
export class OpenApiDocument {
  /** The pointer of each object, found when read (the first, for a YAML alias met twice). */
  private readonly pointers = new WeakMap<object, string>();
  /** What each `$ref` object resolves to: the same object every time it is met, so comparisons can remember it. */
  private readonly resolved = new WeakMap<object, unknown>();

  private constructor(
    readonly file: string,
    private readonly root: Json,
  ) {
    this.index();
  }

  /** Parses the text of `file`; a DocumentProblem says why it is not an OpenAPI 3 document. */
  static parse(text: string, file: string): OpenApiDocument {
    const problem = (message: string) => new DocumentProblem(`${file}: ${message}`);
    const yaml = !text.trimStart().startsWith('{');
    if (yaml && flowNestsTooDeep(text)) throw problem(`nested too deep to read (over ${maxNesting} levels)`);
    let data: unknown;
    try {
      data = yaml ? parseYaml(text) : JSON.parse(text);
    } catch (error) {
      const message = (error as Error).message.split('\n')[0] ?? '';
      // The YAML parser recurses: blocks nested thousands deep end its stack, which is no answer to give.
      if (error instanceof RangeError || message.includes('call stack'))
        throw problem(`nested too deep to read (over ${maxNesting} levels)`);
      throw problem(`neither JSON nor YAML (${message})`);
    }
    if (!isObject(data)) throw problem('not an OpenAPI document (no object at the top)');
    if (typeof data.swagger === 'string')
      throw problem(`a Swagger ${String(data.swagger)} document: evalkit diff reads OpenAPI 3.0 and 3.1`);
    if (typeof data.openapi !== 'string' || !data.openapi.startsWith('3.'))
      throw problem('not an OpenAPI 3.0 or 3.1 document (no "openapi": "3.x" field)');
    if (!isObject(data.paths)) throw problem('an OpenAPI document without "paths"');
    return new OpenApiDocument(file, data);
  }

  /** A DocumentProblem naming this document's file. */
  problem(message: string): DocumentProblem {
    return new DocumentProblem(`${this.file}: ${message}`);
  }

  /** The JSON pointer of an object of this document, as a message shows it (`#/components/schemas/Error`). */
  pointerOf(value: unknown): string | undefined {
    const pointer = typeof value === 'object' && value !== null ? this.pointers.get(value) : undefined;
    return pointer === undefined ? undefined : shortPointer(pointer);
  }

  /**
   * Gives every object its pointer, by the one walk over a JSON value (http/json-walk.ts: in document order, without
   * recursion, for a document may nest 20,000 deep); refuses a document nested deeper than maxNesting, and a YAML alias
   * that contains itself (a value no JSON text can be: a `$ref` says it). An object met again (an alias) keeps the
   * pointer of where it was met first, and is walked once.
   */
  private index(): void {
    // The objects from the root down to the value met, by depth: an alias among them contains itself.
    const path: object[] = [];
    const onPath = new Set<object>();
    walkJson(this.root, (value, key, holder, depth) => {
      if (typeof value !== 'object' || value === null) return undefined;
      while (path.length > depth) onPath.delete(path.pop() as object);
      const pointer = holder ? `${this.pointers.get(holder.value) as string}/${token(String(key))}` : '#';
      if (onPath.has(value))
        throw this.problem(`a YAML alias at ${shortPointer(pointer)} contains itself: write the cycle as a $ref`);
      if (this.pointers.has(value)) return 'skip';
      if (depth > maxNesting) throw this.problem(`nested deeper than ${maxNesting} levels at ${shortPointer(pointer)}`);
      this.pointers.set(value, pointer);
      path.push(value);
      onPath.add(value);
      return undefined;
    });
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
      const item = this.resolve(own(paths, candidate));
      if (!isObject(item)) continue;
      const found = own(item, method.toLowerCase());
      if (isObject(found))
        return {
          path: candidate,
          operation: found,
          pathParameters: Array.isArray(item.parameters) ? item.parameters : [],
          servedPath: servedPath(found.servers ?? item.servers ?? this.root.servers, candidate),
          security: Array.isArray(found.security)
            ? found.security
            : Array.isArray(this.root.security)
              ? this.root.security
              : undefined,
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
   * The same reference resolves to the same object every time.
   */
  resolve(value: unknown): unknown {
    if (OpenApiDocument.refOf(value) === undefined) return value;
    const start = value as Json;
    if (this.resolved.has(start)) return this.resolved.get(start);
    const seen = new Set<object>();
    let current: unknown = start;
    for (let ref = OpenApiDocument.refOf(current); ref !== undefined; ref = OpenApiDocument.refOf(current)) {
      const holder = current as Json;
      const target = this.pointer(ref, holder);
      // Targets are the document's own objects (a merge below is not): a circle of references meets one again.
      if (isObject(target) && seen.has(target))
        throw this.problem(
          `the $ref chain through ${shortPointer(ref)} at ${this.pointerOf(start)} goes round in a circle`,
        );
      if (isObject(target)) seen.add(target);
      const { $ref: _ref, ...siblings } = holder;
      if (isObject(target) && Object.keys(siblings).length > 0) {
        // Spread copies own keys as they are: a sibling named `__proto__` stays a key, as JSON.parse made it.
        const merged = { ...target, ...siblings };
        this.pointers.set(merged, this.pointers.get(holder) ?? '#');
        current = merged;
      } else current = target;
    }
    this.resolved.set(start, current);
    return current;
  }

  private pointer(ref: string, holder: object): unknown {
    const at = () => this.pointerOf(holder) ?? '#';
    if (!ref.startsWith('#/'))
      throw this.problem(
        `the $ref ${shortPointer(ref)} at ${at()} points outside the document: bundle it first (redocly bundle)`,
      );
    let value: unknown = this.root;
    for (const raw of ref.slice(2).split('/')) {
      const key = uriDecoded(raw, () =>
        this.problem(`the $ref ${shortPointer(ref)} at ${at()} has a malformed %-escape`),
      )
        .replace(/~1/g, '/')
        .replace(/~0/g, '~');
      value = own(value, key);
      if (value === undefined) throw this.problem(`the $ref ${shortPointer(ref)} at ${at()} leads nowhere`);
    }
    return value;
  }
}

/** A `$ref` token with its %-escapes undone; a malformed one (`%E0`) is the problem given. */
function uriDecoded(raw: string, malformed: () => DocumentProblem): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    throw malformed();
  }
}

/**
 * A path under the first server's URL (`https://host/api/v2`, `/api/v2`, `{scheme}://host/api`): its path before
 * the document's; a document without servers serves its paths at the root.
 */
function servedPath(servers: unknown, path: string): string {
  const url = Array.isArray(servers) && isObject(servers[0]) ? servers[0].url : undefined;
  const base = typeof url === 'string' ? url.replace(/^[^/?#]*:\/\/[^/?#]*/, '').replace(/[?#].*$/, '') : '';
  const joined = `/${[...base.split('/'), ...path.split('/')].filter(Boolean).join('/')}`;
  // A trailing slash is kept: a server serves `/evaluations/` and `/evaluations` apart (FastAPI redirects the other).
  return path.length > 1 && path.endsWith('/') && joined !== '/' ? `${joined}/` : joined;
}

/**
 * Whether two served paths are the same once their parameters' names are set aside (`{id}` is `{evaluation_id}`); a
 * trailing slash added or dropped is another path, which a client written for the one meets as a redirect or a 404.
 */
export function samePath(a: string, b: string): boolean {
  return templateSegments(a).join('/') === templateSegments(b).join('/') && a.endsWith('/') === b.endsWith('/');
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
