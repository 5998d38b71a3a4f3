import { readdir, stat } from 'node:fs/promises';
import { isJsonObject as isObject } from '../schemas/json-object.js';
import { join } from 'node:path';
import { dotSegmentRefusal, isDotSegment, matchPath, pathFor } from '../api/match.js';
import { operationTable, recordFolder, type OperationId } from '../api/operations.js';
import { recordedRequestOf, TrafficProblem, type RecordedRequest } from './recorded-request.js';
import { readBounded, readFailure } from './bounded-read.js';

/**
 * What an app sent and got, as evalkit saved it: the mock's journal export (`GET /__evalkit/requests` saved to a file)
 * or a proxy `--record` folder. One reader for `evalkit diff --traffic` and `evalkit contract --replay`, in the HTTP
 * layer since both read it and neither imports the other. Credentials are placeholders in both: the journal and the
 * proxy redact before they keep anything. Each request is one record of http/recorded-request.ts.
 */

/** One answer the app got, with its body as JSON. */
interface RecordedAnswer {
  method: string;
  path: string;
  status: number;
  body: unknown;
}

export interface Traffic {
  /** In the order they were sent. */
  requests: RecordedRequest[];
  answers: RecordedAnswer[];
}

/**
 * A recording with each request's own record as written beside its reading (a journal entry, a requests.jsonl line):
 * what `evalkit fixtures --from` writes again, its fields kept.
 */
export interface Recording {
  requests: Array<{ written: Record<string, unknown>; request: RecordedRequest }>;
  answers: RecordedAnswer[];
}

/** What readTraffic throws, for a file or folder it cannot read or a record in it. */
export { TrafficProblem };

/** The file a proxy `--record DIR` keeps the requests in, one JSON line each, beside the answers' folder. */
export const requestsFileName = 'requests.jsonl';

const fetchOperation = operationTable.fetchHumanEvaluation;

function answerOf(entry: RecordedRequest, raw: unknown): RecordedAnswer | undefined {
  const response = isObject(raw) && isObject(raw.response) ? raw.response : undefined;
  if (!response || entry.status === undefined || response.body_truncated === true || response.body === null)
    return undefined;
  if (typeof response.body === 'string') return undefined;
  return { method: entry.method, path: entry.path, status: entry.status, body: response.body };
}

/** The journal export: `{ "requests": [...] }`, newest first as the journal lists them. */
function journalRecording(data: unknown, file: string): Recording {
  if (!isObject(data) || !Array.isArray(data.requests))
    throw new TrafficProblem(`${file} is not a journal export (no "requests" list: save GET /__evalkit/requests)`);
  const entries = [...(data.requests as unknown[])].reverse();
  const requests = entries.map((entry, index) => ({
    written: entry as Record<string, unknown>,
    request: recordedRequestOf(entry, `${file}: requests[${entries.length - 1 - index}]`),
  }));
  const answers = requests.flatMap(({ request }, index) => answerOf(request, entries[index]) ?? []);
  return { requests, answers };
}

/** A journal export or a recording: days of a proxy's traffic fit well under it; `/dev/zero` does not. */
const trafficFileLimit = 256 * 2 ** 20;

async function readText(file: string): Promise<string> {
  try {
    return await readBounded(file, trafficFileLimit);
  } catch (error) {
    throw unreadable(file, error);
  }
}

function unreadable(file: string, error: unknown): TrafficProblem {
  return new TrafficProblem(`cannot read ${file} (${readFailure(error)})`);
}

function parseJson(text: string, where: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new TrafficProblem(`${where} is not JSON`);
  }
}

/**
 * A proxy `--record DIR`: its requests file when there is one, and each recorded fetch answer
 * (`DIR/<recordFolder>/<id>.json`), a 200 of the fetch operation for that id.
 */
async function recordedFolder(dir: string): Promise<Recording> {
  const requests: Recording['requests'] = [];
  const requestsFile = join(dir, requestsFileName);
  const lines = await readBounded(requestsFile, trafficFileLimit).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw unreadable(requestsFile, error);
  });
  if (lines !== undefined)
    lines.split('\n').forEach((line, index) => {
      if (line.trim() === '') return;
      const written = parseJson(line, `${requestsFileName} line ${index + 1}`);
      const request = recordedRequestOf(written, `${requestsFile} line ${index + 1}`);
      requests.push({ written: written as Record<string, unknown>, request });
    });
  const folder = join(dir, recordFolder);
  const names = await readdir(folder).catch(() => undefined);
  if (lines === undefined && names === undefined)
    throw new TrafficProblem(`${dir} is not a proxy --record folder (no ${requestsFileName}, no ${recordFolder}/)`);
  const answers: RecordedAnswer[] = [];
  for (const name of (names ?? []).filter((candidate) => candidate.endsWith('.json')).sort()) {
    const id = name.slice(0, -'.json'.length);
    // A record is named by its id, so a file `..json` names an id no request can carry (api/match.ts).
    if (isDotSegment(id)) throw new TrafficProblem(`${join(recordFolder, name)}: ${dotSegmentRefusal('its id', id)}`);
    const body = parseJson(await readText(join(folder, name)), join(recordFolder, name));
    const path = pathFor('fetchHumanEvaluation', { [fetchOperation.parameter.name]: id });
    answers.push({ method: fetchOperation.method, path, status: 200, body });
  }
  return { requests, answers };
}

/** Reads a journal export file or a proxy `--record` folder, each request's record as written kept beside it. */
export async function readRecording(path: string): Promise<Recording> {
  let isFolder: boolean;
  try {
    isFolder = (await stat(path)).isDirectory();
  } catch (error) {
    throw new TrafficProblem(`cannot read ${path} (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  if (isFolder) return recordedFolder(path);
  return journalRecording(parseJson(await readText(path), path), path);
}

/** Reads a journal export file or a proxy `--record` folder. */
export async function readTraffic(path: string): Promise<Traffic> {
  const { requests, answers } = await readRecording(path);
  return { requests: requests.map(({ request }) => request), answers };
}

/**
 * The operation a request or answer (recorded, or passing through the proxy) was one of, by method and path relative
 * to the base path (read as the mock reads it, api/match.ts), with its path parameters decoded; undefined for any
 * other method or path, or a parameter that is not percent-encoded UTF-8.
 */
export function recordedRoute({
  method,
  path,
}: {
  method: string;
  path: string;
}): { operation: OperationId; params: Record<string, string> } | undefined {
  const match = matchPath(path);
  return match.kind === 'operation' && operationTable[match.operation].method === method
    ? { operation: match.operation, params: match.params }
    : undefined;
}
