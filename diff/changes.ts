import { operationIds, operationLabel, type OperationId } from '../api/operations.js';
import { isJsonObject as isObject } from '../schemas/json-object.js';
import type { JsonSchema as Json } from '../schemas/index.js';
import { capped } from '../http/excerpt.js';
import { isJsonMediaType, mediaTypeOf } from '../http/media-type.js';
import { samePath, type DocumentOperation, type OpenApiDocument } from './document.js';
import { SchemaComparison, type Part } from './schema-changes.js';

/** Where a field is: a path or query parameter, a header, the body; `operation` for the operation itself. */
type Location = 'path' | 'query' | 'header' | 'body' | 'operation';

/** One change between two versions of an operation, and whether it breaks a client written against the old one. */
export interface Change {
  operation: OperationId;
  part: Part;
  /** The response's status (`200`, `default`), for a response change. */
  status?: string;
  location: Location;
  /** Below the location: field names, `[]` for an array's items, `*` for a map's values. */
  segments: string[];
  change: string;
  breaking: boolean;
}

/** How output names a field: `body[].status.value`, `path.evaluation_id`. */
export function fieldOf({ location, segments }: Pick<Change, 'location' | 'segments'>): string {
  return segments.reduce((text, segment) => (segment === '[]' ? `${text}[]` : `${text}.${segment}`), location);
}

interface Parameter {
  location: 'path' | 'query' | 'header';
  name: string;
  required: boolean;
  schema: unknown;
}

/** The names of a path template's parameters, in order: a base path before them moves none. */
function templateParameters(path: string): string[] {
  return [...path.matchAll(/\{([^}]*)\}/g)].map((match) => match[1] as string);
}

/** The operation's parameters (its path item's, overridden by its own), path parameters named by their position. */
function parameters(document: OpenApiDocument, found: DocumentOperation): Map<string, Parameter> {
  const byKey = new Map<string, Parameter>();
  const own = Array.isArray(found.operation.parameters) ? found.operation.parameters : [];
  for (const raw of [...found.pathParameters, ...own]) {
    const parameter = document.resolve(raw);
    if (!isObject(parameter) || typeof parameter.name !== 'string') continue;
    const location = parameter.in;
    if (location !== 'path' && location !== 'query' && location !== 'header') continue;
    const key =
      location === 'path'
        ? `path ${templateParameters(found.path).indexOf(parameter.name)}`
        : `${location} ${parameter.name.toLowerCase()}`;
    byKey.set(key, {
      location,
      name: parameter.name,
      required: parameter.required === true || location === 'path',
      schema: parameter.schema,
    });
  }
  return byKey;
}

/** The JSON media type's schema of a `content` map, or undefined when it has none. */
function jsonSchema(document: OpenApiDocument, holder: unknown): { schema: unknown } | undefined {
  const resolved = document.resolve(holder);
  const content = isObject(resolved) && isObject(resolved.content) ? resolved.content : {};
  const type = Object.keys(content).find((name) => isJsonMediaType(mediaTypeOf(name)));
  if (type === undefined) return undefined;
  const media = content[type];
  return { schema: isObject(media) ? media.schema : undefined };
}

/** A name a document gives (an operationId, a scheme, a date), as a line quotes it: at most 120 characters. */
const name = (value: unknown) => capped(String(value), 120);

/** Compares the two versions of one operation. */
class OperationComparison {
  readonly changes: Change[] = [];

  constructor(
    private readonly id: OperationId,
    private readonly before: OpenApiDocument,
    private readonly after: OpenApiDocument,
    private readonly renames: Set<string>,
  ) {}

  private add(change: Omit<Change, 'operation'>): void {
    this.changes.push({ operation: this.id, ...change });
  }

  private schemas(part: Part, old: unknown, next: unknown, at: Omit<Change, 'operation' | 'change' | 'breaking'>) {
    const comparison = new SchemaComparison(this.before, this.after, part, this.renames);
    comparison.compare(old, next);
    for (const { segments, change, breaking, sameAs } of comparison.changes) {
      const first = sameAs && fieldOf({ location: at.location, segments: [...at.segments, ...sameAs] });
      const text = first === undefined ? change : `changed as ${first} (the same schemas, compared there)`;
      this.add({ ...at, segments: [...at.segments, ...segments], change: text, breaking });
    }
  }

  compare(old: DocumentOperation, next: DocumentOperation): Change[] {
    this.lifecycle(old.operation, next.operation);
    this.security(old.security, next.security);
    this.parameters(old, next);
    this.requestBody(old.operation.requestBody, next.operation.requestBody);
    this.responses(old.operation.responses, next.operation.responses);
    return this.changes;
  }

  /**
   * What a client's code and its generator read of the operation itself: its name (a generated client's function),
   * its deprecation and the date it goes away. Listed, not breaking: every request is answered as before.
   */
  private lifecycle(old: Json, next: Json): void {
    const at = { part: 'request' as const, location: 'operation' as const, segments: [] };
    if (old.operationId !== next.operationId && typeof old.operationId === 'string')
      this.add({
        ...at,
        change:
          `operationId ${name(old.operationId)} → ${name(next.operationId ?? 'none')}` +
          ': generated clients rename it',
        breaking: false,
      });
    if (old.deprecated !== true && next.deprecated === true)
      this.add({ ...at, change: 'deprecated: it may be removed; plan the move', breaking: false });
    if (old.deprecated === true && next.deprecated !== true)
      this.add({ ...at, change: 'no longer deprecated', breaking: false });
    const sunset = (operation: Json) => operation['x-sunset'];
    if (sunset(next) !== undefined && sunset(old) !== sunset(next))
      this.add({ ...at, change: `sunset ${name(sunset(next))}: removed after that date`, breaking: false });
  }

  /**
   * Who may call it. An empty requirement (`{}`) among the alternatives, or none declared, lets a caller without
   * credentials in: taken away, every such client gets a 401. An alternative removed breaks the clients using it.
   */
  private security(old: unknown[] | undefined, next: unknown[] | undefined): void {
    const at = { part: 'request' as const, location: 'operation' as const, segments: [] };
    const schemes = (requirements: unknown[] | undefined) =>
      (requirements ?? []).filter(isObject).map((requirement) => Object.keys(requirement).sort().join(' + '));
    const anonymous = (requirements: unknown[] | undefined) =>
      requirements === undefined || requirements.length === 0 || schemes(requirements).includes('');
    if (anonymous(old) && !anonymous(next))
      this.add({ ...at, change: 'security: a call without credentials is no longer allowed', breaking: true });
    else if (!anonymous(old) && anonymous(next))
      this.add({ ...at, change: 'security: a call without credentials is allowed', breaking: false });
    if (anonymous(next)) return;
    const after = new Set(schemes(next));
    for (const scheme of schemes(old))
      if (scheme !== '' && !after.has(scheme))
        this.add({ ...at, change: `security: ${name(scheme)} no longer accepted`, breaking: true });
    const before = new Set(schemes(old));
    for (const scheme of schemes(next))
      if (!before.has(scheme)) this.add({ ...at, change: `security: ${name(scheme)} accepted`, breaking: false });
  }

  private parameters(old: DocumentOperation, next: DocumentOperation): void {
    const before = parameters(this.before, old);
    const after = parameters(this.after, next);
    for (const [key, parameter] of after) {
      const previous = before.get(key);
      const at = { part: 'request' as const, location: parameter.location, segments: [parameter.name] };
      if (previous === undefined) {
        this.add({
          ...at,
          change: parameter.required ? 'added, required' : 'added, optional',
          breaking: parameter.required,
        });
        continue;
      }
      if (!previous.required && parameter.required) this.add({ ...at, change: 'made required', breaking: true });
      if (previous.required && !parameter.required) this.add({ ...at, change: 'made optional', breaking: false });
      this.schemas('request', previous.schema, parameter.schema, at);
    }
    for (const [key, parameter] of before)
      if (!after.has(key))
        this.add({
          part: 'request',
          location: parameter.location,
          segments: [parameter.name],
          change: 'removed: now ignored',
          breaking: false,
        });
  }

  private requestBody(old: unknown, next: unknown): void {
    const at = { part: 'request' as const, location: 'body' as const, segments: [] };
    const before = this.before.resolve(old);
    const after = this.after.resolve(next);
    if (before === undefined && after === undefined) return;
    const required = (body: unknown) => isObject(body) && body.required === true;
    if (!required(before) && required(after)) this.add({ ...at, change: 'body made required', breaking: true });
    const oldJson = jsonSchema(this.before, before);
    const newJson = jsonSchema(this.after, after);
    if (oldJson && !newJson) this.add({ ...at, change: 'JSON body no longer accepted', breaking: true });
    else if (!oldJson && newJson) this.add({ ...at, change: 'JSON body added', breaking: required(after) });
    else if (oldJson && newJson) this.schemas('request', oldJson.schema, newJson.schema, at);
  }

  /**
   * A response's headers: one the client could count on (`required`) and no longer sent breaks the code that reads it;
   * an optional one dropped, or any added, is listed.
   */
  private headers(status: string, old: unknown, next: unknown): void {
    const headersOf = (document: OpenApiDocument, response: unknown) => {
      const resolved = document.resolve(response);
      const headers = isObject(resolved) && isObject(resolved.headers) ? resolved.headers : {};
      const byName = new Map<string, boolean>();
      for (const [name, header] of Object.entries(headers)) {
        const read = document.resolve(header);
        byName.set(name.toLowerCase(), isObject(read) && read.required === true);
      }
      return byName;
    };
    const before = headersOf(this.before, old);
    const after = headersOf(this.after, next);
    const at = (name: string) => ({ part: 'response' as const, status, location: 'header' as const, segments: [name] });
    for (const [name, required] of before)
      if (!after.has(name))
        this.add({ ...at(name), change: required ? 'no longer sent' : 'optional, removed', breaking: required });
      else if (required && after.get(name) === false)
        this.add({ ...at(name), change: 'made optional: it may not be sent', breaking: true });
    for (const [name, required] of after)
      if (!before.has(name))
        this.add({ ...at(name), change: required ? 'added, sent' : 'added, optional', breaking: false });
  }

  private responses(old: unknown, next: unknown): void {
    const before = this.before.resolve(old);
    const after = this.after.resolve(next);
    const oldResponses = isObject(before) ? before : {};
    const newResponses = isObject(after) ? after : {};
    for (const status of Object.keys(oldResponses)) {
      const at = { part: 'response' as const, status, location: 'body' as const, segments: [] };
      if (!Object.hasOwn(newResponses, status)) {
        // A client reads the success answer it was written for; an error status it no longer gets costs it nothing.
        const success = status.startsWith('2');
        this.add({ ...at, change: `status ${status} no longer documented`, breaking: success });
        continue;
      }
      this.headers(status, oldResponses[status], newResponses[status]);
      const oldJson = jsonSchema(this.before, oldResponses[status]);
      const newJson = jsonSchema(this.after, newResponses[status]);
      if (oldJson && !newJson) this.add({ ...at, change: 'JSON body no longer sent', breaking: true });
      else if (!oldJson && newJson) this.add({ ...at, change: 'JSON body added', breaking: false });
      else if (oldJson && newJson) this.schemas('response', oldJson.schema, newJson.schema, at);
    }
    for (const status of Object.keys(newResponses))
      if (!Object.hasOwn(oldResponses, status))
        this.add({
          part: 'response',
          status,
          location: 'body',
          segments: [],
          change: `status ${status} documented`,
          breaking: false,
        });
  }
}

/** Every change to the two operations between the documents; an operation the new one lacks breaks every client. */
export function diffDocuments(before: OpenApiDocument, after: OpenApiDocument): Change[] {
  const changes: Change[] = [];
  const renames = new Set<string>();
  for (const id of operationIds) {
    const old = before.operation(id);
    const next = after.operation(id);
    const at = { operation: id, part: 'request' as const, location: 'operation' as const, segments: [] };
    if (old && !next) changes.push({ ...at, change: `${operationLabel(id)} removed`, breaking: true });
    else if (!old && next) changes.push({ ...at, change: `${operationLabel(id)} added`, breaking: false });
    else if (old && next) {
      // A client calls the path it was written for: the same operation served elsewhere is not there for it.
      if (!samePath(old.servedPath, next.servedPath))
        changes.push({ ...at, change: `path moved: ${old.servedPath} → ${next.servedPath}`, breaking: true });
      changes.push(...new OperationComparison(id, before, after, renames).compare(old, next));
    }
  }
  return changes;
}
