import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
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

describe("progress under Vitest's fake timers, with no now option", () => {
  const fakeServer = setupServer(...createHandlers({ baseUrl: 'http://fake.test', progress: 5000 }));
  beforeAll(() => fakeServer.listen({ onUnhandledRequest: 'error' }));
  afterAll(() => fakeServer.close());
  afterEach(() => vi.useRealTimers());

  const fakeStatusOf = async (id: string) =>
    ((await (await fetch(`http://fake.test/human-evaluations/${id}`)).json()) as { status: string }).status;

  it('follows vi.setSystemTime and vi.advanceTimersByTime, as a polling test moves them', async () => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date('2031-05-01T08:00:00Z'));
    expect(await fakeStatusOf('faked')).toBe('EVALUATION_INITIALIZED');
    vi.setSystemTime(new Date('2031-05-01T08:00:05Z'));
    expect(await fakeStatusOf('faked')).toBe('EVALUATION_STARTED');
    vi.advanceTimersByTime(5000);
    expect(await fakeStatusOf('faked')).toBe('EVALUATION_FINISHED');
  });
});
