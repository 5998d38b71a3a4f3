import { createServer, type Server } from 'node:http';
import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { EventStream, maxUnreadEventBytes } from '../../mock/node/event-stream.js';
import { startMockServer, type MockServer } from '../../mock/index.js';
import { eventually, openEvents } from './control-helpers.js';

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

async function mock(): Promise<{ url: string; origin: string }> {
  const server: MockServer = await startMockServer({ port: 0 });
  closers.push(() => server.close());
  return { url: server.url, origin: new URL(server.url).origin };
}

/** An EventStream behind a real HTTP server, so its clients are real sockets. */
async function streamServer(): Promise<{ stream: EventStream; port: number }> {
  const stream = new EventStream();
  const server: Server = createServer((req, res) => stream.open(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(async () => {
    stream.close();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
  return { stream, port: (server.address() as AddressInfo).port };
}

describe('GET /__evalkit/events', () => {
  it('streams one text/event-stream event per journal entry, as it happens, to every client', async () => {
    const { url, origin } = await mock();
    const [one, two] = [await openEvents(`${origin}/__evalkit/events`), await openEvents(`${origin}/__evalkit/events`)];
    try {
      await fetch(`${url}/human-evaluations/first`);
      await fetch(`${url}/human-evaluations/second`, { headers: { Prefer: 'code=404' } });
      for (const client of [one, two]) {
        const second = await client.next(
          (event) => event.event === 'message' && JSON.parse(event.data).path === '/human-evaluations/second',
        );
        const entries = client.events
          .filter((event) => event.event === 'message')
          .map((event) => JSON.parse(event.data));
        expect(entries.map((entry) => [entry.id, entry.path, entry.status])).toEqual([
          [1, '/human-evaluations/first', 200],
          [2, '/human-evaluations/second', 404],
        ]);
        // The same shape as GET /__evalkit/requests gives.
        const { requests } = (await (await fetch(`${origin}/__evalkit/requests?limit=1`)).json()) as any;
        expect(JSON.parse(second.data)).toEqual(requests[0]);
      }
    } finally {
      one.close();
      two.close();
    }
  });

  it('tells clients when the journal is emptied', async () => {
    const { origin } = await mock();
    const client = await openEvents(`${origin}/__evalkit/events`);
    try {
      await fetch(`${origin}/__evalkit/requests`, { method: 'DELETE' });
      await client.next((event) => event.event === 'cleared');
    } finally {
      client.close();
    }
  });
});

describe('EventStream', () => {
  it('removes a client once it closes its connection', async () => {
    const { stream, port } = await streamServer();
    const client = await openEvents(`http://127.0.0.1:${port}/`);
    await eventually(async () => expect(stream.size).toBe(1));
    stream.send({ n: 1 });
    await client.next((event) => event.data === '{"n":1}');
    client.close();
    await eventually(async () => expect(stream.size).toBe(0));
    expect(stream.listening).toBe(false);
  });

  it('drops a client that stops reading instead of buffering for it without bound', async () => {
    const { stream, port } = await streamServer();
    const reader = await openEvents(`http://127.0.0.1:${port}/`);
    // A raw socket that sends its request and then never reads a byte.
    const stuck = connect(port, '127.0.0.1');
    stuck.write(`GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`);
    stuck.pause();
    const stuckClosed = new Promise<void>((resolve) => stuck.once('close', () => resolve()));
    await eventually(async () => expect(stream.size).toBe(2));
    const payload = 'x'.repeat(64 * 1024);
    // Far more than the kernel's socket buffers and the unread limit together, in event-loop turns so writes flush.
    for (let n = 0; n < 400 && stream.size === 2; n++) {
      stream.send({ n, payload });
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(stream.size).toBe(1);
    stuck.resume();
    await stuckClosed;
    // The reading client kept every event up to now.
    stream.send({ last: true });
    await reader.next((event) => event.data === '{"last":true}', 10_000);
    reader.close();
    expect(maxUnreadEventBytes).toBeLessThan(400 * payload.length);
  });
});
