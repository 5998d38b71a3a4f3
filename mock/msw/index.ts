import { http, type HttpHandler } from 'msw';
import { handleFetch } from '../core/fetch.js';
import { createMockCore } from '../core/handle.js';
import type { MockCoreOptions } from '../core/options.js';

export interface HandlersOptions extends Omit<MockCoreOptions, 'basePath'> {
  /**
   * Where the app calls the API: `http://localhost:8000/api` (that origin and path), `/api` (that path on any origin),
   * or `''`, the default (the two operations' paths on any origin). Every path under a non-root base is answered,
   * unknown ones with the mock's 404; at the root only the two operations are, so the app's other requests pass by.
   */
  baseUrl?: string;
  /** Wait before every answer: `MS` or `'MIN-MAX'` (the `latency` scenario key, which a Prefer header still overrides). */
  latency?: number | string;
}

/** The origin (undefined: any) and the base path of a baseUrl. */
function splitBaseUrl(baseUrl: string): { origin?: string; basePath: string } {
  if (!/^[a-z][a-z0-9+.-]*:/i.test(baseUrl)) return { basePath: baseUrl };
  const url = new URL(baseUrl);
  return { origin: url.origin, basePath: url.pathname };
}

/**
 * MSW handlers answering the Evaluation Service API with evalkit's mock core: the same bodies, scenarios (also per
 * request through `Prefer`), fixtures and errors as `evalkit mock`, in a browser (setupWorker), in Node tests
 * (msw/node) and in Storybook. Throws a MockSetupError (naming the option) when an option is invalid.
 */
export function createHandlers(options: HandlersOptions = {}): HttpHandler[] {
  const { baseUrl = '', latency, ...coreOptions } = options;
  const { origin, basePath } = splitBaseUrl(baseUrl);
  const scenario = latency === undefined ? coreOptions.scenario : { ...coreOptions.scenario, latency: String(latency) };
  const core = createMockCore({ ...coreOptions, basePath, ...(scenario && { scenario }) });
  const owns = (url: string) => (origin === undefined || new URL(url).origin === origin) && core.serves(url);
  return [
    http.all(
      ({ request }) => owns(request.url),
      ({ request }) => handleFetch(core, request),
    ),
  ];
}

/** Handlers with the default options: both operations on any origin, seed 1, profile mixed. */
export const handlers: HttpHandler[] = createHandlers();
