import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { closeMockApp, mockAppWith, type MockOptions, type MockSeams } from './app.js';
import { normalizeBasePath } from '../core/options.js';
import { createGuardedServer, type TimeBounds } from './http-guards.js';
import { defaultMockHost, defaultMockPort } from './defaults.js';
import { isOwnAddress, ownAddressProblem, passthroughOrigin } from './passthrough.js';

export interface MockServerOptions extends MockOptions, TimeBounds {
  /** Default 4010 (Prism's); 0 picks a free port. */
  port?: number;
  /**
   * Default 127.0.0.1: the mock is for local development, not for the network. Another interface (`0.0.0.0`) exposes
   * the API to whoever reaches it; the control room still answers loopback names and `allowedHosts` only.
   */
  host?: string;
}

export interface MockServer {
  /** The base URL, base path included, e.g. `http://127.0.0.1:4010/api`. */
  url: string;
  close(): Promise<void>;
}

function urlOf(server: Server, host: string, basePath: string): string {
  const { port } = server.address() as AddressInfo;
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}${basePath}`;
}

/**
 * Starts the mock on an HTTP server; resolves once it listens. close() ends open connections too, so it never waits on
 * a client. Throws a MockSetupError, the server closed, when `passthrough` is the mock's own address: known only once
 * it listens (`port: 0`).
 */
export function startMockServer(options: MockServerOptions = {}): Promise<MockServer> {
  return startMockServerWith(options, {});
}

/** startMockServer, with the tests' seams (app.ts, MockSeams). */
export async function startMockServerWith(options: MockServerOptions, seams: MockSeams): Promise<MockServer> {
  const app = mockAppWith(options, seams);
  const host = options.host ?? defaultMockHost;
  const server = createGuardedServer(app, options);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? defaultMockPort, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const close = () =>
    new Promise<void>((resolve, reject) => {
      closeMockApp(app);
      server.close((error) => (error ? reject(error) : resolve()));
      server.closeAllConnections();
    });
  if (options.passthrough !== undefined) {
    // createMockApp has checked the URL already.
    const target = passthroughOrigin(options.passthrough);
    if (isOwnAddress(target, host, (server.address() as AddressInfo).port)) {
      await close();
      throw ownAddressProblem(target);
    }
  }
  return { url: urlOf(server, host, normalizeBasePath(options.basePath ?? '')), close };
}
