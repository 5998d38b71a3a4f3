import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { generateBatch } from '../../generators/index.js';
import { createMockCore, type MockAnswer } from '../../mock/index.js';
import { resourceNames } from '../../schemas/index.js';
import { createRequest } from '../mock/helpers.js';

/**
 * The real web client's response interceptor, as it stands in every release: every `created_at`, `updated_at` and
 * `timestamp` string that does not end in `Z` gets one appended (its fix for the service's naive date-times).
 */
const dateKeys = new Set(['created_at', 'updated_at', 'timestamp']);

function interceptedDates(value: unknown, found: string[] = []): string[] {
  if (Array.isArray(value)) for (const item of value) interceptedDates(item, found);
  else if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      if (dateKeys.has(key) && typeof item === 'string') found.push(item.endsWith('Z') ? item : `${item}Z`);
      else interceptedDates(item, found);
    }
  }
  return found;
}

function unparseable(dates: readonly string[]): string[] {
  return dates.filter((date) => Number.isNaN(Date.parse(date)));
}

const decode = (answer: MockAnswer): unknown => JSON.parse(new TextDecoder().decode(answer.body));

describe("default date-times survive the real web client's Z rule", () => {
  const datedResources = resourceNames.filter(
    (name) => interceptedDates([...generateBatch(name, 'dated?', 20, { profile: 'full' })]).length > 0,
  );

  it('covers every resource that carries dates', () => {
    expect(datedResources).toEqual(expect.arrayContaining(['Evaluation', 'HumanEvaluation', 'EvaluatorConfig']));
  });

  it.each(datedResources)('%s: every date of 1,000 generated records still parses', (name) => {
    for (const profile of ['mixed', 'full', 'minimal'] as const) {
      const dates = interceptedDates([...generateBatch(name, `web-client-${profile}`, 1000, { profile })]);
      expect(dates.length).toBeGreaterThan(0);
      expect(unparseable(dates).slice(0, 3)).toEqual([]);
    }
  });

  it("every date of the mock's answers still parses", async () => {
    const core = createMockCore({ seed: 'web-client' });
    const dates: string[] = [];
    for (let index = 0; index < 300; index++) {
      dates.push(
        ...interceptedDates(
          decode(core.handle({ method: 'GET', url: `/human-evaluations/h${index}`, headers: {} }) as MockAnswer),
        ),
      );
      const body = new TextEncoder().encode(JSON.stringify(createRequest({ app_id: `app-${index}` })));
      const headers = {
        'content-type': 'application/json',
        'content-length': String(body.length),
        prefer: 'state=finished',
      };
      dates.push(
        ...interceptedDates(decode(await core.handle({ method: 'POST', url: '/evaluations', headers, body }))),
      );
    }
    expect(dates.length).toBeGreaterThan(2000);
    expect(unparseable(dates).slice(0, 3)).toEqual([]);
  });

  it('every date of the committed mock fixtures still parses', () => {
    const folder = new URL('../../fixtures/mock/human-evaluations/', import.meta.url);
    const records = readdirSync(folder).map(
      (file) => JSON.parse(readFileSync(new URL(file, folder), 'utf8')) as unknown,
    );
    expect(records.length).toBeGreaterThan(0);
    expect(unparseable(interceptedDates(records))).toEqual([]);
  });

  it('the edge profile still shows the +00:00 offset, on purpose', () => {
    const dates = interceptedDates([...generateBatch('HumanEvaluation', 'edge-offsets', 100, { profile: 'edge' })]);
    expect(dates.some((date) => date.endsWith('+00:00Z'))).toBe(true);
  });
});
