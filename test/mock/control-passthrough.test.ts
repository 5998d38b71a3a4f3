import { describe, expect, it } from 'vitest';
import { withheldBodyText } from '../../http/kept-body.js';
import { controlRoom } from '../../mock/control/control-room.js';
import { mockCore } from '../../mock/core/handle.js';
import { resolveMockOptions } from '../../mock/core/options.js';
import { jsonAnswer } from '../../mock/core/request-answer.js';

/** A control room on a core of its own, as an adapter with `--passthrough` makes it. */
function room() {
  const config = resolveMockOptions({});
  return controlRoom({ core: mockCore(config), scenarios: config.scenarios, sessions: config.sessions, log: () => {} });
}

type Room = ReturnType<typeof room>;

async function journal(control: Room): Promise<Array<Record<string, any>>> {
  const answer = await control.serve({ method: 'GET', url: '/__evalkit/requests', headers: {} });
  expect(answer.status).toBe(200);
  return (JSON.parse(new TextDecoder().decode(answer.body)) as { requests: Array<Record<string, any>> }).requests;
}

/** What the node adapter hands the room once a pass-through exchange is over. */
function passed(path: string, answerBytes: number) {
  return {
    request: { method: 'GET', url: path, headers: { host: '127.0.0.1:4010', authorization: 'Bearer s3cret' } },
    status: 200,
    answerHeaders: { 'content-type': 'application/json' },
    requestBytes: 0,
    answerBytes,
    arrived: Date.now(),
    durationMs: 3.2,
  };
}

describe('a pass-through in the journal: what it holds, said as what it is', () => {
  it("gives the origin's answer its size and says its body was not kept, where it read as no body at all", async () => {
    const control = room();
    const size = JSON.stringify({ apps: [1, 2, 3] }).length;
    control.passedThrough(passed('/api/apps', size));
    control.passedThrough(passed('/api/empty', 0));
    const [empty, apps] = await journal(control);

    expect(apps).toMatchObject({ path: '/api/apps', served: 'passthrough', scenario: null, notes: [] });
    expect(apps?.response).toEqual({
      headers: { 'content-type': 'application/json' },
      body: withheldBodyText(size, 'passed through, not kept'),
      body_bytes: size,
      body_truncated: true,
    });
    // An answer that had no body is told as one: nothing is withheld.
    expect(empty?.response).toMatchObject({ body: null, body_bytes: 0, body_truncated: false });
    expect(apps?.request.headers.authorization).toBe('<AUTHORIZATION>');
  });

  it("keeps the mock's own answer in the origin's stead (a 502), noting that the origin did not answer", async () => {
    const control = room();
    const detail = { detail: 'the passthrough origin could not be reached', cause: 'ECONNREFUSED' };
    const own = jsonAnswer(502, new TextEncoder().encode(JSON.stringify(detail)), { Connection: 'close' });
    control.passedThrough({ ...passed('/api/apps', 0), status: 502, answerHeaders: {}, own });
    const [entry] = await journal(control);

    expect(entry).toMatchObject({ status: 502, served: 'passthrough' });
    expect(entry?.response).toEqual({
      headers: own.headers,
      body: detail,
      body_bytes: own.body?.length,
      body_truncated: false,
    });
    expect(entry?.notes).toEqual([
      "the passthrough origin did not answer: this 502 is the mock's own, its body says why",
    ]);
  });
});
