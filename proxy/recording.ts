import { appendFile, mkdir, readdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { credentialField } from '../api/credentials.js';
import { recordFolder } from '../api/operations.js';
import { decodeBody } from '../http/body-decoding.js';
import { replayHeaders } from '../http/credentials.js';
import { secretPlaceholder } from '../http/placeholders.js';
import { recordedTarget, type RecordedPart, type RecordedRequestJson } from '../http/recorded-request.js';
import { requestsFileName } from '../http/traffic.js';
import type { Passage } from './forward.js';
import { validate } from '../schemas/validators/index.js';

/** What became of one answer offered for recording. */
export type RecordingOutcome = { recorded: string } | { refused: string };

/**
 * Ids that are safe as file names on every system the fixtures may travel to, and that the mock maps back to the same
 * id (`<id>.json`): no separator, no traversal (`..`, a leading dot), no NUL, space or trailing dot, under every
 * length limit. Anything else is refused rather than encoded: the mock reads the file name as the id, so an encoded
 * name would be served for another id.
 */
const fileSafeId = /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,199}$/;

/** Windows reserves these device names whatever follows the first dot, in any letter case: `CON.json` is no file. */
const windowsDevice = /^(?:con|prn|aux|nul|com[0-9]|lpt[0-9])(?:\.|$)/i;

/** Why an id cannot name its file, or undefined. */
function fileNameProblem(id: string): string | undefined {
  if (!fileSafeId.test(id))
    return (
      'the id is not usable as a file name (letters, digits, ".", "_", "-", not starting with ".", at most 200): ' +
      'refused, not encoded: the mock reads the file name as the id'
    );
  if (windowsDevice.test(id))
    return `the id names a Windows device (${id.split('.')[0]}): refused, no file can hold it`;
  return undefined;
}

/**
 * Writes each valid 200 answer of the fetch operation as `DIR/<recordFolder>/<id>.json` (api/operations.ts), the
 * layout `evalkit mock --fixtures DIR` serves. An answer that fails the schema, answers another id, or carries any
 * credential the proxy knows of is refused, never written.
 */
export class Recorder {
  private readonly folder: string;
  private pending: Promise<unknown> = Promise.resolve();
  private writes = 0;
  /** The id of every fixture in the folder, by its lower-cased form: on macOS and Windows `A` and `a` are one file. */
  private readonly ids = new Map<string, string>();

  private constructor(dir: string) {
    this.folder = join(dir, recordFolder);
  }

  /** Creates the folder at once, so a directory that cannot be written is a start-up error, not a silent loss. */
  static async open(dir: string): Promise<Recorder> {
    const recorder = new Recorder(dir);
    await mkdir(recorder.folder, { recursive: true });
    for (const name of await readdir(recorder.folder))
      if (name.endsWith('.json')) recorder.ids.set(name.slice(0, -'.json'.length).toLowerCase(), name.slice(0, -5));
    return recorder;
  }

  /**
   * `secretIn`: the placeholder of a credential the text holds in any form (a watched lm_providers_keys value, a
   * --header value, the client's own credentials), or undefined. Resolves once the file is written, or with why it
   * was not, naming the credential by its placeholder, never by its value.
   */
  offer(id: string, body: string, secretIn: (text: string) => string | undefined): Promise<RecordingOutcome> {
    const outcome = this.write(id, body, secretIn);
    this.pending = this.pending.then(() => outcome);
    return outcome;
  }

  /** Resolves once every write offered so far has ended. */
  settled(): Promise<unknown> {
    return this.pending;
  }

  private async write(
    id: string,
    body: string,
    secretIn: (text: string) => string | undefined,
  ): Promise<RecordingOutcome> {
    let data: unknown;
    try {
      data = JSON.parse(body);
    } catch {
      return { refused: 'the body is not JSON' };
    }
    if (!validate('HumanEvaluation', data).valid) return { refused: 'the body fails the HumanEvaluation schema' };
    if ((data as { id: string }).id !== id) return { refused: 'the body is the record of another id' };
    const problem = fileNameProblem(id);
    if (problem) return { refused: problem };
    const sameFile = this.ids.get(id.toLowerCase());
    if (sameFile !== undefined && sameFile !== id)
      return {
        refused: `the id differs from ${sameFile}, already in the folder, only in case (one file on macOS, Windows)`,
      };
    const secret = secretIn(body);
    if (secret !== undefined) return { refused: `the body carries a credential (${secret})` };
    this.ids.set(id.toLowerCase(), id);
    const file = join(this.folder, `${id}.json`);
    const partial = `${file}.${process.pid}-${++this.writes}.partial`;
    try {
      // Written whole, then renamed: a mock reading the folder never sees half a file.
      await writeFile(partial, `${JSON.stringify(data, null, 2)}\n`);
      await rename(partial, file);
    } catch (error) {
      return { refused: `cannot write ${file} (${(error as NodeJS.ErrnoException).code ?? 'error'})` };
    }
    return { recorded: file };
  }
}

/** A request body as the requests file keeps it: JSON with each provider key a placeholder, else its text. */
function keptBody(passage: Passage): Omit<RecordedPart, 'headers'> {
  if (passage.overCap) return { body: null, body_truncated: true };
  const content = passage.requestBody?.content;
  if (content === undefined) return { body: null, body_truncated: false };
  if ('problem' in content) return { body: null, body_truncated: true };
  const { body: text } = decodeBody(content.bytes);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return { body: text, body_truncated: false };
  }
  const keys =
    typeof body === 'object' && body !== null ? (body as Record<string, unknown>)[credentialField] : undefined;
  if (typeof keys === 'object' && keys !== null && !Array.isArray(keys))
    body = {
      ...(body as Record<string, unknown>),
      [credentialField]: Object.fromEntries(Object.keys(keys).map((name) => [name, secretPlaceholder])),
    };
  return { body, body_truncated: false };
}

/** The most `requests.jsonl` holds: about 8,000 create requests of 8 KiB, more than any replay needs. */
const requestLogCapBytes = 64 * 1024 * 1024;

/**
 * Keeps each request of the two operations as one line of `DIR/requests.jsonl` (http/traffic.ts reads it, for
 * `evalkit diff --traffic` and `evalkit contract --replay`) as a recorded request (http/recorded-request.ts), the
 * shape of the mock journal's export: method, path, query and headers with every credential a placeholder, status, the
 * body with every provider key one; and then every credential the proxy knows of, in any encoding, redacted from the
 * whole line. Nothing here is a credential.
 */
export class RequestLog {
  private pending: Promise<unknown> = Promise.resolve();
  private bytes = 0;
  private full = false;

  private constructor(
    private readonly file: string,
    private readonly capBytes: number,
  ) {}

  /** `capBytes`: the most the file holds, so a proxy left running for days never fills the disk. */
  static async open(dir: string, capBytes = requestLogCapBytes): Promise<RequestLog> {
    await mkdir(dir, { recursive: true });
    return new RequestLog(join(dir, requestsFileName), capBytes);
  }

  /**
   * Appends the request, in the order requests ended; resolves with why it could not be written, if it could not.
   * Past the cap, the first request left out says so, and the later ones are left out silently.
   */
  keep(passage: Passage, redact: (text: string) => string): Promise<string | undefined> {
    if (this.full) return Promise.resolve(undefined);
    const headers = replayHeaders(passage.requestHeaders);
    const contentType = passage.requestHeaders['content-type'];
    if (contentType !== undefined) headers['content-type'] = contentType;
    const line: RecordedRequestJson = {
      method: passage.method,
      path: passage.path,
      query: recordedTarget(passage.requestTarget).query,
      ...(passage.status !== undefined ? { status: passage.status } : {}),
      request: { headers, ...keptBody(passage) },
    };
    const text = `${redact(JSON.stringify(line))}\n`;
    const size = Buffer.byteLength(text);
    if (this.bytes + size > this.capBytes) {
      this.full = true;
      return Promise.resolve(
        `${this.file} holds ${this.bytes} bytes, its cap of ${this.capBytes}: later requests are not kept`,
      );
    }
    this.bytes += size;
    const written = this.pending.then(() =>
      appendFile(this.file, text).then(
        () => undefined,
        (error: NodeJS.ErrnoException) => `cannot write ${this.file} (${error.code ?? 'error'})`,
      ),
    );
    this.pending = written;
    return written;
  }

  settled(): Promise<unknown> {
    return this.pending;
  }
}
