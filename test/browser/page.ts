import { setupWorker } from 'msw/browser';
import { createHandlers } from '../../mock/msw/index.js';
import { pageOptions } from './page-options.js';

/** The page of the browser test: MSW's service worker with evalkit's handlers; the test waits on `evalkitReady`. */
const worker = setupWorker(...createHandlers(pageOptions));
(globalThis as { evalkitReady?: Promise<unknown> }).evalkitReady = worker.start({ onUnhandledFrame: 'bypass', quiet: true });
