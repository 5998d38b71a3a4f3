import { afterEach, expect } from 'vitest';
import { startMockServer, type MockServer, type MockServerOptions } from '../../mock/index.js';
import { startCli, type RunningCli } from '../helpers/cli.js';

/** `evalkit mock --port 0 ARGS` as users start it (in this process), with the API and control room URLs it prints. */
export async function startMockCli(args: string[] = []): Promise<{ mock: RunningCli; api: string; room: string }> {
  const mock = startCli(['mock', '--port', '0', ...args]);
  const printed = await mock.waitFor(/listening on (http:\/\/\S+)\ncontrol room: (http:\/\/\S+)\n/, 10_000);
  const [, api, room] = printed as unknown as [string, string, string];
  return { mock, api, room };
}

/** `start(options)` puts a mock on a free port, and every mock started is closed after each test. */
export function mockServers(): (options?: MockServerOptions) => Promise<{ url: string; origin: string }> {
  const servers: MockServer[] = [];
  afterEach(async () => {
    for (const server of servers.splice(0)) await server.close();
  });
  return async (options = {}) => {
    const server = await startMockServer({ port: 0, ...options });
    servers.push(server);
    return { url: server.url, origin: new URL(server.url).origin };
  };
}

/** The control room's journal of a mock at `origin`, newest first (`query`: e.g. `?limit=2`). */
export async function journal(origin: string, query = ''): Promise<Array<Record<string, any>>> {
  const res = await fetch(`${origin}/__evalkit/requests${query}`);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/application\/json/);
  return ((await res.json()) as { requests: Array<Record<string, any>> }).requests;
}

/** POST /evaluations to the mock at `url` with a JSON body, and any other headers. */
export function post(url: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${url}/evaluations`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
}

/** One server-sent event as a client reads it. */
export interface ServerEvent {
  event: string;
  data: string;
}

/**
 * A real text/event-stream client over fetch: events are parsed as they arrive, `next(match)` waits for the first
 * one (already received or to come) that matches.
 */
export async function openEvents(url: string): Promise<{
  events: ServerEvent[];
  next(match: (event: ServerEvent) => boolean, timeoutMs?: number): Promise<ServerEvent>;
  close(): void;
}> {
  const controller = new AbortController();
  const res = await fetch(url, { signal: controller.signal });
  if (res.status !== 200 || !res.headers.get('content-type')?.startsWith('text/event-stream'))
    throw new Error(`not an event stream: ${res.status}`);
  const events: ServerEvent[] = [];
  const waiters = new Set<() => void>();
  const reader = (res.body as ReadableStream<Uint8Array>).pipeThrough(new TextDecoderStream()).getReader();
  void (async () => {
    let buffer = '';
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        buffer += value;
        let end;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const lines = block.split('\n');
          const data = lines.filter((line) => line.startsWith('data: ')).map((line) => line.slice(6));
          if (data.length === 0) continue;
          const name = lines.find((line) => line.startsWith('event: '))?.slice(7) ?? 'message';
          events.push({ event: name, data: data.join('\n') });
          for (const wake of waiters) wake();
        }
      }
    } catch {
      // Aborted by close().
    }
  })();
  return {
    events,
    next(match, timeoutMs = 5000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = events.find(match);
          if (!found) return;
          waiters.delete(check);
          clearTimeout(timer);
          resolve(found);
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(
            new Error(`no matching event within ${timeoutMs} ms; got ${events.map((event) => event.event).join(', ')}`),
          );
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    close: () => controller.abort(),
  };
}

/** Polls until the check passes (a file watcher, an event loop turn); fails with the last error after the timeout. */
export async function eventually<T>(check: () => Promise<T>, timeoutMs = 5000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await check();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}
