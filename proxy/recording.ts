import { mkdir } from 'node:fs/promises';
import { operation, operationIds, operationLabel, operationTable, type OperationId } from '../api/operations.js';
import { AppendOnlyFile } from '../http/folder-files.js';
import { replayHeaders } from '../http/credentials.js';
import { keptRequestBody, withheldBodyText } from '../http/kept-body.js';
import type { Pseudonymizer } from '../http/pseudonymizer.js';
import { RecordFolder, type RecordingOutcome } from '../http/record-folder.js';
import { recordedTarget, type RecordedPart, type RecordedRequestJson } from '../http/recorded-request.js';
import { requestsFileName } from '../http/traffic.js';
import type { Passage } from './forward.js';
import { validate } from '../schemas/validators/index.js';

export type { RecordingOutcome };

/**
 * Writes each valid 200 answer of an operation that answers a record by id as that record (http/record-folder.ts), in
 * its operation's record folder: the layout
 * `evalkit mock --fixtures DIR` serves. An answer that fails the schema, answers another id, or carries any
 * credential the proxy knows of is refused, never written.
 */
export class Recorder {
  private pending: Promise<unknown> = Promise.resolve();

  private constructor(
    private readonly folders: ReadonlyMap<OperationId, RecordFolder>,
    private readonly pseudonymizer: Pseudonymizer | undefined,
  ) {}

  /**
   * Creates each operation's record folder (its `recordFolder`, api/operations.ts) at once, so a directory that cannot
   * be written is a start-up error, not a silent loss. With a pseudonymizer, each record is written with its personal
   * values' pseudonyms, under its id's (http/pseudonymizer.ts).
   */
  static async open(dir: string, pseudonymizer?: Pseudonymizer): Promise<Recorder> {
    const folders = new Map<OperationId, RecordFolder>();
    for (const id of operationIds) {
      const folder = operation(id).recordFolder;
      if (folder !== undefined) folders.set(id, await RecordFolder.open(dir, folder));
    }
    return new Recorder(folders, pseudonymizer);
  }

  /**
   * `secretIn`: the placeholder of a credential the text holds in any form (a watched lm_providers_keys value, a
   * --header value, the client's own credentials), or undefined. Resolves once the file is written, or with why it
   * was not, naming the credential by its placeholder, never by its value.
   */
  offer(
    operation: OperationId,
    id: string,
    body: string,
    secretIn: (text: string) => string | undefined,
  ): Promise<RecordingOutcome> {
    const outcome = this.write(operation, id, body, secretIn);
    this.pending = this.pending.then(() => outcome);
    return outcome;
  }

  /** Resolves once every write offered so far has ended. */
  settled(): Promise<unknown> {
    return this.pending;
  }

  private async write(
    operation: OperationId,
    id: string,
    body: string,
    secretIn: (text: string) => string | undefined,
  ): Promise<RecordingOutcome> {
    const folder = this.folders.get(operation);
    if (folder === undefined) return { refused: `${operationLabel(operation)} answers no record by id` };
    let data: unknown;
    try {
      data = JSON.parse(body);
    } catch {
      return { refused: 'the body is not JSON' };
    }
    const { resource } = operationTable[operation].response;
    if (!validate(resource, data).valid) return { refused: `the body fails the ${resource} schema` };
    if ((data as { id: string }).id !== id) return { refused: 'the body is the record of another id' };
    const secret = secretIn(body);
    if (secret !== undefined) return { refused: `the body carries a credential (${secret})` };
    if (this.pseudonymizer === undefined) return folder.write(id, data);
    const pseudonymized = this.pseudonymizer.record(resource, data as { id: string });
    if ('refused' in pseudonymized) return pseudonymized;
    return folder.write(pseudonymized.value.id, pseudonymized.value);
  }
}

/**
 * A request body as the requests file keeps it (http/kept-body.ts): JSON, read in the charset its byte order mark or
 * Content-Type names, with each provider key a placeholder (redacted as the mock's journal redacts it, at any depth
 * and in any case); else withheld as the journal withholds it, saying why.
 */
function keptBody(passage: Passage): Omit<RecordedPart, 'headers'> {
  if (passage.overCap) return { body: null, body_truncated: true };
  const content = passage.requestBody?.content;
  if (content === undefined) return { body: null, body_truncated: false };
  if ('problem' in content) return { body: null, body_truncated: true };
  const kept = keptRequestBody(content.bytes, passage.requestHeaders['content-type']);
  if ('withheld' in kept) return { body: withheldBodyText(content.bytes.length, kept.withheld), body_truncated: true };
  return { body: kept.body, body_truncated: false };
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
    private readonly file: AppendOnlyFile,
    private readonly capBytes: number,
    private readonly pseudonymizer: Pseudonymizer | undefined,
  ) {}

  /**
   * `capBytes`: the most the file holds, so a proxy left running for days never fills the disk. Throws a
   * FolderProblem when `DIR/requests.jsonl` is a link (http/folder-files.ts): it is never appended through. With a
   * pseudonymizer, each line is kept with its personal values' pseudonyms (http/pseudonymizer.ts).
   */
  static async open(dir: string, capBytes = requestLogCapBytes, pseudonymizer?: Pseudonymizer): Promise<RequestLog> {
    await mkdir(dir, { recursive: true });
    return new RequestLog(await AppendOnlyFile.open(dir, requestsFileName), capBytes, pseudonymizer);
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
    // The answer's personal values first: the line is swept of what this very answer holds (a name, an id).
    if (this.pseudonymizer !== undefined && passage.status !== undefined && !passage.overCap)
      this.pseudonymizer.learnAnswer(passage, passage.status, passage.body);
    const recorded: RecordedRequestJson = {
      method: passage.method,
      path: passage.path,
      query: recordedTarget(passage.requestTarget).query,
      ...(passage.status !== undefined ? { status: passage.status } : {}),
      request: { headers, ...keptBody(passage) },
    };
    const line = this.pseudonymizer === undefined ? { value: recorded } : this.pseudonymizer.request(recorded);
    if ('refused' in line) return Promise.resolve(`not kept in ${this.file.path}: ${line.refused}`);
    const text = `${redact(JSON.stringify(line.value))}\n`;
    const size = Buffer.byteLength(text);
    if (this.bytes + size > this.capBytes) {
      this.full = true;
      return Promise.resolve(
        `${this.file.path} holds ${this.bytes} bytes, its cap of ${this.capBytes}: later requests are not kept`,
      );
    }
    this.bytes += size;
    const written = this.pending.then(() =>
      this.file.append(text).then(
        () => undefined,
        (error: NodeJS.ErrnoException) => `cannot write ${this.file.path} (${error.code ?? 'error'})`,
      ),
    );
    this.pending = written;
    return written;
  }

  /** Resolves once every line offered so far is written, and the file closed. */
  async close(): Promise<void> {
    await this.pending;
    await this.file.close();
  }
}
