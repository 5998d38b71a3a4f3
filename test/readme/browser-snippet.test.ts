import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMockApp } from '../../mock/index.js';
import { fetchInPage, hasChromium, noChromium } from '../browser/chromium.js';
import { createRequest, expectValid } from '../mock/helpers.js';
import type { CorpusRequest } from '../msw/corpus.js';
import { observeExpress, type Observed } from '../msw/observe.js';
import { readmeSnippet, runBrowserSnippet, type BrowserSnippetRun } from './snippet.js';

if (!hasChromium) console.warn(`README browser snippet test skipped: ${noChromium}`);

const path = '/human-evaluations/6637c0a25368ef07b03a64cd';

/**
 * The policy of an app that handles credentials: scripts from its own origin only, so no eval and no `new Function`.
 * The mock must validate (a create's body, its own answers) without building code at run time.
 */
const strictPolicy = { 'Content-Security-Policy': "script-src 'self'" };

const json = { 'Content-Type': 'application/json' };
const more: CorpusRequest[] = [
  { name: 'GET failed', method: 'GET', path: '/human-evaluations/csp-1', headers: { Prefer: 'state=failed' } },
  // The created Evaluations carry the moment of the request: pinned, so both mocks answer the same bytes.
  {
    name: 'POST valid',
    method: 'POST',
    path: '/evaluations',
    headers: { ...json, Prefer: 'now=2026-01-02T03:04:05Z' },
    body: JSON.stringify(createRequest()),
  },
  { name: 'POST invalid', method: 'POST', path: '/evaluations', headers: json, body: '{"app_id": 1}' },
];

describe.skipIf(!hasChromium)(
  'the README\'s "In the browser / Storybook" snippet, as written, in headless Chromium under a strict CSP',
  () => {
    let run: BrowserSnippetRun | undefined;
    let answers: Observed[] = [];
    let evalInPage = '';

    beforeAll(async () => {
      const snippet = readmeSnippet('In the browser / Storybook', 'browser');
      run = await runBrowserSnippet(snippet, `/api${path}`, undefined, strictPolicy);
      answers = await fetchInPage(run.session.page, '/api', more);
      // DevTools lets the code it evaluates itself use eval; a timer's callback is the page's own code again.
      evalInPage = await run.session.page.evaluate(
        () =>
          new Promise<string>((resolve) =>
            setTimeout(() => {
              try {
                resolve(String(new Function('return "allowed"')()));
              } catch (error) {
                resolve((error as Error).name);
              }
            }),
          ),
      );
    }, 120_000);

    afterAll(() => run?.session.close());

    it('is served under a policy that refuses eval: the page cannot build a function from a string', () => {
      expect(evalInPage).toBe('EvalError');
    });

    it('starts the worker cleanly and answers /api like `evalkit mock --base-path /api --seed storybook`', async () => {
      expect(run?.session.errors).toEqual([]);
      expect(run?.answer.status).toBe(200);
      expectValid('HumanEvaluation', JSON.parse(run?.answer.body ?? 'null'));
      const app = createMockApp({ basePath: '/api', seed: 'storybook' });
      expect(run?.answer).toEqual(await observeExpress(app, '/api', { name: 'GET', method: 'GET', path }));
    });

    it('validates and answers a create, and a scenario, as `evalkit mock` does: no policy report', async () => {
      expect(answers.map((answer) => answer.status)).toEqual([200, 200, 422]);
      const app = createMockApp({ basePath: '/api', seed: 'storybook' });
      for (const [index, entry] of more.entries())
        expect(answers[index], entry.name).toEqual(await observeExpress(app, '/api', entry));
      expect(run?.session.errors).toEqual([]);
      expect(run?.session.messages.filter((text) => /Content Security Policy|unsafe-eval/i.test(text))).toEqual([]);
    });
  },
);
