// A node:test file, run by latency-node-test.test.ts as `node --test` in a plain Node process: nothing but the fetch
// awaiting its delayed answer keeps it alive, as in an app's own script (no Vitest worker to hide an early exit).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setupServer } from 'msw/node';
import { createHandlers } from '../../dist/mock/msw/index.js';

test('Prefer: latency=300 through evalkit/msw and msw/node answers after the delay', async () => {
  const server = setupServer(...createHandlers({ baseUrl: 'http://evaluation-service.test' }));
  server.listen({ onUnhandledRequest: 'error' });
  try {
    const answer = await fetch('http://evaluation-service.test/human-evaluations/abc', {
      headers: { Prefer: 'latency=300' },
    });
    console.log(`answer: ${answer.status}, Preference-Applied: ${answer.headers.get('preference-applied')}`);
    assert.equal(answer.status, 200);
    assert.equal(answer.headers.get('preference-applied'), 'latency=300');
  } finally {
    server.close();
  }
});
