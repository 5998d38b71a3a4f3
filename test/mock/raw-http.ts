import { connect, type Socket } from 'node:net';

/** A raw TCP connection to a server, for what an HTTP client would refuse to send. */
export interface RawConnection {
  socket: Socket;
  /** Everything the server has sent so far. */
  received(): string;
  /** Resolves once the server's bytes include the text (or rejects when the connection closes first). */
  waitFor(text: string): Promise<void>;
  /** Resolves when the connection is closed, by either side. */
  closed: Promise<void>;
}

export function openRaw(url: string): Promise<RawConnection> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: hostname, port: Number(port) });
    let data = '';
    const waiters: Array<{ text: string; resolve: () => void; reject: (error: Error) => void }> = [];
    const settle = () => {
      for (const waiter of [...waiters]) {
        if (data.includes(waiter.text)) {
          waiters.splice(waiters.indexOf(waiter), 1);
          waiter.resolve();
        }
      }
    };
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => {
      data += chunk;
      settle();
    });
    // A reset after the answer is part of some tests: what was received is what counts.
    socket.on('error', () => undefined);
    const closed = new Promise<void>((done) =>
      socket.once('close', () => {
        for (const waiter of waiters.splice(0))
          waiter.reject(new Error(`closed before '${waiter.text}'; received: ${data.slice(0, 500)}`));
        done();
      }),
    );
    socket.once('connect', () =>
      resolve({
        socket,
        received: () => data,
        waitFor: (text) =>
          new Promise((ok, fail) => {
            waiters.push({ text, resolve: ok, reject: fail });
            settle();
          }),
        closed,
      }),
    );
    socket.once('error', reject);
  });
}

/** Writes the bytes in one write, then reads until the server closes the connection: the responses it sent. */
export async function exchangeRaw(
  url: string,
  bytes: string,
  encoding: BufferEncoding = 'utf8',
): Promise<RawResponse[]> {
  const connection = await openRaw(url);
  connection.socket.write(bytes, encoding);
  await connection.closed;
  return parseResponses(connection.received());
}

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** The responses in what a server sent, interim (1xx) ones included, each with its Content-Length's worth of body. */
export function parseResponses(text: string): RawResponse[] {
  const responses: RawResponse[] = [];
  let rest = text;
  while (rest.startsWith('HTTP/')) {
    const end = rest.indexOf('\r\n\r\n');
    if (end < 0) break;
    const [statusLine, ...lines] = rest.slice(0, end).split('\r\n');
    const headers = Object.fromEntries(
      lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]),
    );
    const length = Number(headers['content-length'] ?? 0);
    responses.push({ status: Number(statusLine?.split(' ')[1]), headers, body: rest.slice(end + 4, end + 4 + length) });
    rest = rest.slice(end + 4 + length);
  }
  return responses;
}
