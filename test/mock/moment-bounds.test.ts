import { describe, expect, it } from 'vitest';
import { utcParts } from '../../generators/context.js';
import { createMockCore, MockSetupError, type MockAnswer, type MockCore } from '../../mock/index.js';
import { runCli } from '../helpers/cli.js';
import { mockServers } from './control-helpers.js';
import { createRequest } from './helpers.js';

const text = (answer: MockAnswer) => new TextDecoder().decode(answer.body);

async function create(core: MockCore, prefer: string): Promise<MockAnswer> {
  const body = new TextEncoder().encode(JSON.stringify(createRequest()));
  const headers = { 'content-type': 'application/json', 'content-length': String(body.length), prefer };
  return core.handle({ method: 'POST', url: '/evaluations', headers, body });
}

/** Years RFC 3339 allows that no id can carry: an ObjectId holds seconds since 1970 in 32 bits. */
const unrenderable = [
  '0000-01-01T00:00:00Z',
  '0001-06-15T12:00:00Z',
  '0999-12-31T23:59:59Z',
  '1969-12-31T23:59:59Z',
  '1970-06-01T00:00:00Z',
  '2106-01-01T00:00:00Z',
  '9999-12-31T23:59:59.999999Z',
];
/** Dates and times that do not exist: a calendar that rolls over would serve another moment. */
const impossible = [
  '2025-02-30T00:00:00Z',
  '2025-04-31T00:00:00Z',
  '2023-02-29T00:00:00Z',
  '2025-13-01T00:00:00Z',
  '2025-00-10T00:00:00Z',
  '2025-01-00T00:00:00Z',
  '2025-06-01T24:00:00Z',
  '2025-06-01T23:60:00Z',
  '2016-12-31T23:59:60Z',
  '2025-06-01T12:00:00+24:00',
  '2025-06-01T12:00:00+01:60',
];

describe('the now key refuses what it cannot render faithfully, never serves another moment', () => {
  const core = createMockCore();

  it('answers 400 naming the key for a year no id can carry, through Prefer', async () => {
    for (const now of unrenderable) {
      const answer = await create(core, `now=${now}`);
      expect(answer.status, now).toBe(400);
      expect(text(answer)).toMatch(/'now' accepts .*from 1971-01-01T00:00:00Z to 2105-12-31T23:59:59.999999Z/);
    }
  });

  it('answers 400 for a date or time that does not exist, rather than the next day', async () => {
    for (const now of impossible) {
      const answer = await create(core, `now=${now}`);
      expect(answer.status, now).toBe(400);
      expect(text(answer)).toMatch(/'now' accepts an RFC 3339 date-time that exists/);
    }
    const leapDay = await create(core, 'now=2024-02-29T00:00:00Z');
    expect(leapDay.status).toBe(200);
    expect(text(leapDay)).toContain('"created_at":"2024-02-29T00:00:00.000000Z"');
  });

  it('is refused as an option, a server scenario, a flag and a scenario written at run time', async () => {
    for (const now of [unrenderable[0] as string, impossible[0] as string]) {
      expect(() => createMockCore({ now }), now).toThrow(MockSetupError);
      expect(() => createMockCore({ scenario: { now } }), now).toThrow(/'now' accepts/);
      const flag = await runCli(['mock', '--port', '0', '--now', now]);
      expect(flag.code, now).toBe(2);
      expect(flag.stderr).toMatch(/--now: scenario key 'now' accepts/);
    }
  });

  const start = mockServers();
  it('refuses a scenario written at run time with a 422, and the scenario in force stays', async () => {
    const { origin } = await start();
    for (const now of [unrenderable[0], impossible[0]]) {
      const res = await fetch(`${origin}/__evalkit/scenario`, {
        method: 'PATCH',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ scenario: { now } }),
      });
      expect(res.status).toBe(422);
      expect(((await res.json()) as { detail: string }).detail).toMatch(/'now' accepts/);
    }
    const inForce = (await (await fetch(`${origin}/__evalkit/scenario`)).json()) as { scenario: object };
    expect(inForce.scenario).not.toHaveProperty('now');
  });

  it('answers a clock function that reads an unrenderable moment with a 500 naming the option', async () => {
    for (const date of [new Date('0000-01-01T00:00:00Z'), new Date(0), new Date(Number.NaN)]) {
      const byFunction = createMockCore({ now: () => date });
      const answer = await create(byFunction, '');
      expect(answer.status).toBe(500);
      expect(text(answer)).toMatch(/now option reads .*renders moments from 1971/);
    }
  });
});

describe('dates are rendered with four-digit years', () => {
  it('renders any year RFC 3339 allows with four digits (a fixture re-rendered in an era form)', () => {
    for (const year of [0, 1, 99, 500, 999, 1971, 9999]) {
      const date = new Date(0);
      date.setUTCFullYear(year, 5, 1);
      expect(utcParts(date.getTime() * 1000).day).toBe(`${String(year).padStart(4, '0')}-06-01`);
    }
  });
});
