import fc from 'fast-check';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { createHandlers } from '../../mock/msw/index.js';
import { adapterCase, coreAnswer, expectDelivered } from '../properties/adapters.js';
import { limitFor, runs } from '../properties/runs.js';

const origin = 'http://evaluation-service.test';
const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterAll(() => server.close());

const mswRuns = 40;

describe('property: msw/node delivers what the core answers', () => {
  it(
    `with the scenario as a createHandlers option (${mswRuns} runs)`,
    async () => {
      await fc.assert(
        fc.asyncProperty(adapterCase, async (test) => {
          server.resetHandlers(...createHandlers({ scenario: test.server, baseUrl: origin }));
          const response = await fetch(`${origin}${test.path}`, {
            method: test.method,
            headers: test.headers,
            body: test.body,
          });
          await expectDelivered(response, await coreAnswer(test));
        }),
        runs(mswRuns),
      );
    },
    limitFor(mswRuns, 1000),
  );
});
