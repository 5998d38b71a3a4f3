import type { IncomingMessage, ServerResponse } from 'node:http';
import type { EventSink } from '../control/admin-routes.js';
import { controlHeaders } from '../control/cross-site.js';

/**
 * Bytes an event client may leave unread before it is dropped: about a hundred journal entries. A client that stops
 * reading (a paused tab, a stuck script) would otherwise make the mock buffer every event for it forever. A dropped
 * EventSource reconnects by itself and can re-read the journal.
 */
export const maxUnreadEventBytes = 1024 * 1024;
/** A comment line this often keeps idle streams open through proxies and shows a dead client early. */
const heartbeatMs = 15_000;

/** Server-sent events (text/event-stream) to every connected client. */
export class EventStream implements EventSink {
  private readonly clients = new Set<ServerResponse>();
  private heartbeat: NodeJS.Timeout | undefined;

  /** Whether anyone listens: callers skip building an event nobody would receive. */
  get listening(): boolean {
    return this.clients.size > 0;
  }

  get size(): number {
    return this.clients.size;
  }

  open(req: IncomingMessage, res: ServerResponse): void {
    res.writeHead(200, {
      ...controlHeaders,
      'Content-Type': 'text/event-stream; charset=utf-8',
      Connection: 'keep-alive',
    });
    res.write('retry: 1000\n\n');
    this.clients.add(res);
    const drop = () => this.drop(res);
    req.once('close', drop);
    res.once('close', drop);
    this.heartbeat ??= setInterval(() => this.write(': heartbeat\n\n'), heartbeatMs).unref();
  }

  /** Sends one event: `data` is serialized once for every client. An unnamed event is a plain `message`. */
  send(data: unknown, event?: string): void {
    if (this.clients.size === 0) return;
    this.write(`${event ? `event: ${event}\n` : ''}data: ${JSON.stringify(data)}\n\n`);
  }

  /** Ends every stream (the server is closing). */
  close(): void {
    for (const res of this.clients) res.end();
    this.clients.clear();
    this.stopHeartbeat();
  }

  private write(chunk: string): void {
    for (const res of this.clients) {
      if (res.writableLength > maxUnreadEventBytes) {
        res.destroy();
        this.drop(res);
      } else {
        res.write(chunk);
      }
    }
  }

  private drop(res: ServerResponse): void {
    this.clients.delete(res);
    if (this.clients.size === 0) this.stopHeartbeat();
  }

  private stopHeartbeat(): void {
    clearInterval(this.heartbeat);
    this.heartbeat = undefined;
  }
}
