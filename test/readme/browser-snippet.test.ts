import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleForBrowser } from '../../bench/browser-bundle.js';
import { createMockApp } from '../../mock/index.js';
import { hasChromium, noChromium, openPage, type PageSession } from '../browser/chromium.js';
import { expectValid } from '../mock/helpers.js';
import { observeExpress, type Observed } from '../msw/observe.js';
import { readmeSnippet } from './snippet.js';

if (!hasChromium) console.warn(`README browser snippet test skipped: ${noChromium}`);

const path = '/human-evaluations/6637c0a25368ef07b03a64cd';

describe.skipIf(!hasChromium)(
  'the README\'s "In the browser / Storybook" snippet, as written, in headless Chromium',
  () => {
    let session: PageSession | undefined;
    let answer: Observed | undefined;

    beforeAll(async () => {
      const { code } = await bundleForBrowser(readmeSnippet('In the browser / Storybook', 'browser'));
      session = await openPage(code);
      // The snippet awaits worker.start(); the page is mocked once the worker controls it.
      await session.page.waitForFunction(
        () =>
          (globalThis as unknown as { navigator: { serviceWorker: { controller: unknown } } }).navigator.serviceWorker
            .controller !== null,
      );
      answer = await session.page.evaluate(async (url) => {
        const res = await fetch(url);
        return {
          status: res.status,
          contentType: res.headers.get('content-type') ?? undefined,
          allow: res.headers.get('allow') ?? undefined,
          preferenceApplied: res.headers.get('preference-applied') ?? undefined,
          body: await res.text(),
        };
      }, `/api${path}`);
    }, 120_000);

    afterAll(() => session?.close());

    it('starts the worker cleanly and answers /api like `evalkit mock --base-path /api --seed storybook`', async () => {
      expect(session?.errors).toEqual([]);
      expect(answer?.status).toBe(200);
      expectValid('HumanEvaluation', JSON.parse(answer?.body ?? 'null'));
      const app = createMockApp({ basePath: '/api', seed: 'storybook' });
      expect(answer).toEqual(await observeExpress(app, '/api', { name: 'GET', method: 'GET', path }));
    });
  },
);
