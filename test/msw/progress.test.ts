import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHandlers } from '../../mock/msw/index.js';

/** What the README's polling example does: a Vitest test moves the mock's pinned clock between polls. */
let now = new Date('2026-03-01T10:00:00Z');
const server = setupServer(
  ...createHandlers({ baseUrl: 'http://api.test', now: () => now, progress: 5000, scenario: { state: 'failed' } }),
);
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterAll(() => server.close());

const statusOf = async (id: string) =>
  ((await (await fetch(`http://api.test/human-evaluations/${id}`)).json()) as { status: string }).status;

describe('progress through evalkit/msw (msw/node setupServer)', () => {
  it('moves a polled record through its three phases as the test moves the clock', async () => {
    expect(await statusOf('poll')).toBe('EVALUATION_INITIALIZED');
    now = new Date('2026-03-01T10:00:05Z');
    expect(await statusOf('poll')).toBe('EVALUATION_STARTED');
    now = new Date('2026-03-01T10:00:10Z');
    expect(await statusOf('poll')).toBe('EVALUATION_FAILED');
  });
});
