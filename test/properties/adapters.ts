import fc from 'fast-check';
import { expect } from 'vitest';
import { createMockCore, type MockAnswer } from '../../mock/index.js';
import { anyId, createRequest, scenarioValues } from './arbitraries.js';
import { preferOf } from './oracle.js';

type Scenario = Record<string, string | number | boolean>;

/** One request an app sends an adapter, with the server scenario the adapter was made with. */
export interface AdapterCase {
  server: Scenario;
  method: 'GET' | 'POST';
  path: string;
  headers: Record<string, string>;
  body?: string;
}

/** A create or a fetch the spec allows, under a scenario split between the server and Prefer; the clock pinned. */
export const adapterCase: fc.Arbitrary<AdapterCase> = fc
  // A dot segment is no id a client can send: its own URL handling resolves `/human-evaluations/..` before sending.
  .tuple(
    fc.oneof(
      createRequest,
      anyId.filter((id) => id !== '.' && id !== '..'),
    ),
    scenarioValues,
    scenarioValues,
  )
  .map(([request, server, prefer]) => {
    const headers: Record<string, string> = {};
    // eraDates on the server takes its era along: the server refuses the one without the other at start-up.
    const onServer = server.eraDates ? server : { ...server, eraDates: false };
    const asked = preferOf(prefer);
    if (asked !== '') headers.prefer = asked;
    const pinned = { ...onServer, now: '2026-01-02T03:04:05.060708Z' };
    if (typeof request === 'string')
      return { server: pinned, method: 'GET', path: `/human-evaluations/${encodeURIComponent(request)}`, headers };
    headers['content-type'] = 'application/json';
    return { server: pinned, method: 'POST', path: '/evaluations', headers, body: JSON.stringify(request) };
  });

/** What the core itself answers the case: what every adapter must deliver. */
export async function coreAnswer(test: AdapterCase): Promise<MockAnswer> {
  const core = createMockCore({ scenario: test.server });
  const body = test.body === undefined ? undefined : new TextEncoder().encode(test.body);
  const headers = body ? { ...test.headers, 'content-length': String(body.length) } : test.headers;
  return core.handle({ method: test.method, url: test.path, headers, body });
}

/** An adapter's response carries the core's status and bytes. */
export async function expectDelivered(response: Response, answer: MockAnswer): Promise<void> {
  expect(response.status).toBe(answer.status);
  const bytes = new Uint8Array(await response.arrayBuffer());
  expect(new TextDecoder().decode(bytes)).toBe(new TextDecoder().decode(answer.body ?? new Uint8Array()));
}
