import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMockApp } from '../../mock/index.js';
import { hasChromium, noChromium } from '../browser/chromium.js';
import { expectValid } from '../mock/helpers.js';
import { observeExpress } from '../msw/observe.js';
import { readmeSnippet, runBrowserSnippet, type BrowserSnippetRun } from './snippet.js';

if (!hasChromium) console.warn(`README browser snippet test skipped: ${noChromium}`);

const path = '/human-evaluations/6637c0a25368ef07b03a64cd';

describe.skipIf(!hasChromium)(
  'the README\'s "In the browser / Storybook" snippet, as written, in headless Chromium',
  () => {
    let run: BrowserSnippetRun | undefined;

    beforeAll(async () => {
      run = await runBrowserSnippet(readmeSnippet('In the browser / Storybook', 'browser'), `/api${path}`);
    }, 120_000);

    afterAll(() => run?.session.close());

    it('starts the worker cleanly and answers /api like `evalkit mock --base-path /api --seed storybook`', async () => {
      expect(run?.session.errors).toEqual([]);
      expect(run?.answer.status).toBe(200);
      expectValid('HumanEvaluation', JSON.parse(run?.answer.body ?? 'null'));
      const app = createMockApp({ basePath: '/api', seed: 'storybook' });
      expect(run?.answer).toEqual(await observeExpress(app, '/api', { name: 'GET', method: 'GET', path }));
    });
  },
);
