import { http, type HttpHandler } from 'msw';
import { controlRoom as openControlRoom } from '../control/control-room.js';
import { handleFetch, mockRequestOf, toResponse } from '../fetch/fetch.js';
import { mockCore } from '../core/handle.js';
import { resolveMockOptions, type MockCoreOptions } from '../core/options.js';
import { MockSetupError } from '../core/setup-error.js';

export interface HandlersOptions extends Omit<MockCoreOptions, 'basePath'> {
  /**
   * Where the app calls the API: `http://localhost:8000/api` (that origin and path), `/api` (that path on any origin),
   * or `''`, the default (the two operations' paths on any origin). Every path under a non-root base is answered,
   * unknown ones with the mock's 404; at the root only the two operations are, so the app's other requests pass by.
   */
  baseUrl?: string;
  /**
   * Wait before every answer: `MS` or `'MIN-MAX'` (the `latency` scenario key, which a Prefer header still overrides).
   */
  latency?: number | string;
  /**
   * Also answer the control room under `/__evalkit` on the same origins, as `evalkit mock` does: the journal of what
   * the app sent (`GET /__evalkit/requests`, credentials redacted), the server scenario at run time
   * (`PUT /__evalkit/scenario`), the dashboard. The event stream stays `evalkit mock`'s. Default false.
   */
  controlRoom?: boolean;
  /** Requests the control room's journal keeps; 0 turns it off. Default 500. */
  journalSize?: number;
}

/**
 * The origin (undefined: any) and the base path of a baseUrl. Anything but a path or an http(s) URL is refused as
 * written: `localhost:8000/api` would otherwise read as a URL of scheme `localhost:` and path `8000/api`.
 */
function splitBaseUrl(baseUrl: string): { origin?: string; basePath: string } {
  if (baseUrl === '' || baseUrl.startsWith('/')) return { basePath: baseUrl };
  if (!/^https?:\/\//i.test(baseUrl) || !URL.canParse(baseUrl)) {
    throw new MockSetupError(
      `baseUrl '${baseUrl}' must be an http(s) URL such as http://localhost:8000/api, a path such as /api, or ''`,
    );
  }
  const url = new URL(baseUrl);
  return { origin: url.origin, basePath: url.pathname };
}

/**
 * MSW handlers answering the Evaluation Service API with evalkit's mock core: the same bodies, scenarios (also per
 * request through `Prefer`), fixtures and errors as `evalkit mock`, in a browser (setupWorker), in Node tests
 * (msw/node) and in Storybook. Throws a MockSetupError (naming the option) when an option is invalid.
 */
export function createHandlers(options: HandlersOptions = {}): HttpHandler[] {
  const { baseUrl = '', latency, controlRoom = false, journalSize, ...coreOptions } = options;
  const { origin, basePath } = splitBaseUrl(baseUrl);
  const scenario = latency === undefined ? coreOptions.scenario : { ...coreOptions.scenario, latency: String(latency) };
  const config = resolveMockOptions({ ...coreOptions, basePath, ...(scenario && { scenario }) });
  const core = mockCore(config);
  const onOrigin = (url: string) => origin === undefined || new URL(url).origin === origin;
  const api = http.all(
    ({ request }) => onOrigin(request.url) && core.serves(request.url),
    ({ request }) => handleFetch(core, request),
  );
  if (!controlRoom) return [api];
  const room = openControlRoom({
    core,
    scenarios: config.scenarios,
    sessions: config.sessions,
    journalSize,
    log: config.log,
  });
  const control = http.all(
    ({ request }) => onOrigin(request.url) && room.owns(request.url),
    async ({ request }) => toResponse(await room.serve(await mockRequestOf(request)), request.method),
  );
  return [control, api];
}

/** Handlers with the default options: both operations on any origin, seed 1, profile mixed. */
export const handlers: HttpHandler[] = createHandlers();
