import { describe, expect, it } from 'vitest';
import { build } from '../../generators/factories.js';
import { evaluationsForRequest, generators } from '../../generators/index.js';
import { createMockCore, type MockAnswer } from '../../mock/index.js';
import { createRequest, objectId, uuidV7 } from './helpers.js';

const idFields = new Set(['id', 'app_id', 'user_id', 'testset_id', 'variant_ids', 'variant_revision_ids']);

/** Every id of a record, nested ones (evaluator configs) included: the fields named as ids and `*_ids` lists. */
function idsOf(value: unknown, found: string[] = []): string[] {
  if (Array.isArray(value)) for (const item of value) idsOf(item, found);
  else if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      if (idFields.has(key) || key === 'variants_revision_ids') found.push(...([item].flat() as string[]));
      else idsOf(item, found);
    }
  }
  return found;
}

const text = (answer: MockAnswer) => new TextDecoder().decode(answer.body);

describe("generated ids follow the style of the request's ids, one style per record", () => {
  const objectIds = {
    app: '6637c0a25368ef07b03a64cd',
    variants: ['6637c0a25368ef07b03a64ce', '6637c0a25368ef07b03a64cf'],
  };
  const uuids = {
    app: '0192f4d2-8a1b-7c3d-9e4f-5a6b7c8d9e0f',
    variants: ['0192f4d2-8a1b-7c3d-9e4f-5a6b7c8d9e10', '0192f4d2-8a1b-7c3d-9e4f-5a6b7c8d9e11'],
  };

  it('GET: an ObjectId path id gets ObjectIds throughout, a UUID path id UUIDv7s, over 40 seeds', () => {
    for (let seed = 0; seed < 40; seed++) {
      const core = createMockCore({ seed, profile: 'full' });
      for (const [id, style] of [
        [objectIds.app, objectId],
        [uuids.app, uuidV7],
      ] as const) {
        const record = JSON.parse(
          text(core.handle({ method: 'GET', url: `/human-evaluations/${id}`, headers: {} }) as MockAnswer),
        );
        for (const generated of idsOf(record).filter((each) => each !== id)) expect(generated).toMatch(style);
      }
    }
  });

  it('POST: ObjectId app and variant ids get ObjectIds throughout, UUIDs UUIDv7s, over 40 seeds', () => {
    for (let seed = 0; seed < 40; seed++) {
      for (const [ids, style] of [
        [objectIds, objectId],
        [uuids, uuidV7],
      ] as const) {
        const request = {
          app_id: ids.app,
          variant_ids: ids.variants,
          testset_id: 'testset',
          evaluators_configs: ['c1'],
        };
        for (const evaluation of evaluationsForRequest(seed, request, {
          profile: 'full',
          state: 'EVALUATION_FINISHED',
        })) {
          const generated = idsOf(evaluation).filter(
            (id) => id !== ids.app && !ids.variants.includes(id) && id !== 'testset' && id !== 'c1',
          );
          expect(generated.length).toBeGreaterThan(2);
          for (const id of generated) expect(id).toMatch(style);
        }
      }
    }
  });

  it('ids of neither shape leave the seed its style, still one per record', () => {
    const styles = new Set<string>();
    for (let seed = 0; seed < 40; seed++) {
      const record = generators.HumanEvaluation(seed, { id: `plain-${seed}` });
      const ids = idsOf(record).filter((id) => id !== record.id);
      const style = objectId.test(ids[0] as string) ? 'object-id' : 'uuid-v7';
      styles.add(style);
      for (const id of ids) expect(id).toMatch(style === 'object-id' ? objectId : uuidV7);
    }
    expect(styles).toEqual(new Set(['object-id', 'uuid-v7']));
  });

  it('the committed mock fixtures use one style per record', async () => {
    const { readdirSync, readFileSync } = await import('node:fs');
    const folder = new URL('../../fixtures/mock/human-evaluations/', import.meta.url);
    for (const file of readdirSync(folder)) {
      const record = JSON.parse(readFileSync(new URL(file, folder), 'utf8')) as { id: string };
      const ids = idsOf(record).filter((id) => objectId.test(id) || uuidV7.test(id));
      const [first] = ids as [string];
      expect(
        ids.every((id) => id.length === first.length),
        file,
      ).toBe(true);
    }
  });

  it("answers a create call through the core in the style of the request's ids, over 10 seeds", async () => {
    const echoed = new Set(['testset-1', 'config-1', 'config-2', 'config-3']);
    const body = new TextEncoder().encode(
      JSON.stringify(createRequest({ app_id: objectIds.app, variant_ids: objectIds.variants })),
    );
    const headers = { 'content-type': 'application/json', 'content-length': String(body.length) };
    for (let seed = 0; seed < 10; seed++) {
      const answer = await createMockCore({ seed }).handle({ method: 'POST', url: '/evaluations', headers, body });
      for (const evaluation of JSON.parse(text(answer)) as unknown[])
        for (const id of idsOf(evaluation).filter((each) => !echoed.has(each))) expect(id).toMatch(objectId);
    }
  });
});

describe('a requested id that carries a time dates the record, as the service mints ids at creation', () => {
  type Dated = { created_at: string; updated_at: string; app_id: string; user_id: string; testset_id: string };
  const get = (core: ReturnType<typeof createMockCore>, id: string, prefer?: string) =>
    JSON.parse(
      text(
        core.handle({
          method: 'GET',
          url: `/human-evaluations/${id}`,
          headers: prefer ? { prefer } : {},
        }) as MockAnswer,
      ),
    ) as Dated;
  /** The time inside an ObjectId (seconds) or a UUIDv7 (milliseconds), in milliseconds. */
  const minted = (id: string) =>
    id.includes('-') ? parseInt(id.replace(/-/g, '').slice(0, 12), 16) : parseInt(id.slice(0, 8), 16) * 1000;

  it('an ObjectId or a UUIDv7 of the past: created_at is its time, and every id it refers to is older', () => {
    for (let seed = 0; seed < 20; seed++) {
      const core = createMockCore({ seed });
      for (const [id, precision] of [
        ['6637c0a25368ef07b03a64cd', 1000],
        ['0190a8f2-7b3c-7def-8123-456789abcdef', 1],
      ] as const) {
        for (const prefer of [undefined, 'state=initialized', 'state=finished']) {
          const record = get(core, id, prefer);
          const created = Date.parse(record.created_at);
          expect(created - minted(id)).toBeGreaterThanOrEqual(0);
          expect(created - minted(id)).toBeLessThan(precision);
          expect(Date.parse(record.updated_at)).toBeGreaterThanOrEqual(created);
          for (const other of [record.app_id, record.user_id, record.testset_id])
            expect(minted(other)).toBeLessThanOrEqual(created);
        }
      }
    }
  });

  it("so does a factory's overridden id, within the generators' window", () => {
    const record = build('HumanEvaluation', { overrides: { id: '6637c0a25368ef07b03a64cd' } });
    expect(record.created_at).toMatch(/^2024-05-05T17:23:46\.\d{6}Z$/);
    const beyond = build('HumanEvaluation', { overrides: { id: 'ffffffff5368ef07b03a64cd' } });
    expect(Date.parse(beyond.updated_at)).toBeLessThanOrEqual(Date.UTC(2026, 9, 31));
  });

  it('an id of a time before 2015 or after the request moment leaves the dates to the seed, before now', () => {
    const core = createMockCore({ seed: 1, now: '2026-01-01T00:00:00Z' });
    for (const id of ['000000000000000000000001', 'ffffffff5368ef07b03a64cd', '6a000000aaaaaaaaaaaaaaaa']) {
      const record = get(core, id);
      expect(Date.parse(record.created_at)).toBeGreaterThanOrEqual(Date.UTC(2025, 0, 1) - 90 * 86_400_000);
      expect(Date.parse(record.updated_at)).toBeLessThanOrEqual(Date.parse('2026-01-01T00:00:00Z'));
    }
  });
});
