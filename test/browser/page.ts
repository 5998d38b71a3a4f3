import { setupWorker } from 'msw/browser';
import { build } from '../../generators/factories.js';
import { createHandlers } from '../../mock/msw/index.js';
import { pageOptions } from './page-options.js';

/** The browser test's page: MSW's service worker with evalkit's handlers, and the factories for the test to call. */
const worker = setupWorker(...createHandlers(pageOptions));
Object.assign(globalThis, {
  evalkitReady: worker.start({ onUnhandledRequest: 'bypass', quiet: true }),
  evalkitBuild: build,
});
