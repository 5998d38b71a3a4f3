import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { createMockCore, MockSetupError, type MockAnswer, type MockCore } from '../../mock/index.js';
import { createRequest, expectEvaluations, expectValid, objectId, uuidV7 } from './helpers.js';

const naive = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}000$/;
const spaced = /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{6}\+00:00$/;
const offset = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}\+00:00$/;
const zulu = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/;

const text = (answer: MockAnswer) => new TextDecoder().decode(answer.body);

/** A create call whose ids are neither ObjectIds nor UUIDs, so only the era can say the style. */
async function create(core: MockCore, prefer?: string): Promise<{ status: number; body: any }> {
  const body = new TextEncoder().encode(JSON.stringify(createRequest()));
  const headers: Record<string, string> = { 'content-type': 'application/json', 'content-length': String(body.length) };
  if (prefer) headers.prefer = prefer;
  const answer = await core.handle({ method: 'POST', url: '/evaluations', headers, body });
  return { status: answer.status, body: JSON.parse(text(answer)) };
}

async function fetchOne(core: MockCore, id: string, prefer?: string): Promise<{ status: number; body: any }> {
  const headers: Record<string, string> = prefer ? { prefer } : {};
  const answer = await core.handle({ method: 'GET', url: `/human-evaluations/${id}`, headers });
  return { status: answer.status, body: JSON.parse(text(answer)) };
}

describe('the era switch: state on create, id style, and (opt-in) the date forms of a release', () => {
  it('a create answers EVALUATION_STARTED up to 0.17, EVALUATION_INITIALIZED after; as today without one', async () => {
    const expected = {
      '0.17': 'EVALUATION_STARTED',
      '0.18': 'EVALUATION_INITIALIZED',
      'v0.26.1': 'EVALUATION_INITIALIZED',
    };
    for (const [era, state] of Object.entries(expected)) {
      const [evaluation] = expectEvaluations((await create(createMockCore({ era }))).body);
      expect(evaluation?.status.value, era).toBe(state);
    }
    const [byPrefer] = (await create(createMockCore(), 'era=0.17')).body;
    expect(byPrefer.status.value).toBe('EVALUATION_STARTED');
    // An explicit state still wins over the era's.
    const [stated] = (await create(createMockCore({ era: '0.17' }), 'state=failed')).body;
    expect(stated.status.value).toBe('EVALUATION_FAILED');
  });

  it("ids the request does not imply take the era's style, over 30 seeds; without an era, the seed's", async () => {
    const styles = new Set<boolean>();
    for (let seed = 0; seed < 30; seed++) {
      for (const [era, style] of [
        ['0.18', objectId],
        ['0.19', uuidV7],
      ] as const) {
        const core = createMockCore({ seed, era, profile: 'full' });
        const [evaluation] = (await create(core)).body;
        for (const id of [evaluation.id, evaluation.user_id, ...evaluation.variant_revision_ids])
          expect(id).toMatch(style);
        const record = (await fetchOne(core, `plain-${seed}`)).body;
        for (const id of [record.app_id, record.user_id, record.testset_id, ...record.variant_ids])
          expect(id).toMatch(style);
      }
      styles.add(objectId.test((await fetchOne(createMockCore({ seed }), `plain-${seed}`)).body.app_id));
    }
    expect(styles).toEqual(new Set([true, false]));
  });

  it("the request's own id style still wins over the era's", async () => {
    const record = (await fetchOne(createMockCore({ era: '0.19' }), '6637c0a25368ef07b03a64cd')).body;
    expect(record.app_id).toMatch(objectId);
  });

  it("eraDates sends each operation's date form of the release, every date of the record", async () => {
    const now = '2026-03-04T05:06:07.123456Z';
    // As recorded from v0.17.5 and v0.24.4: a fetched record and a created one are written differently.
    for (const [era, fetched, createdForm, created] of [
      ['0.17', naive, offset, '2026-03-04T05:06:07.123456+00:00'],
      ['0.19', spaced, zulu, '2026-03-04T05:06:07.123456Z'],
    ] as const) {
      const core = createMockCore({ era, now, profile: 'full' });
      const [evaluation] = (await create(core, 'eraDates=true, state=finished')).body;
      expect(evaluation.created_at).toBe(created);
      const configs = evaluation.aggregated_results.map((result: any) => result.evaluator_config);
      for (const dated of [evaluation, ...configs.filter((config: any) => config.created_at)]) {
        expect(dated.created_at).toMatch(createdForm);
        expect(dated.updated_at).toMatch(createdForm);
      }
      const record = (await fetchOne(core, 'abc', 'eraDates=true')).body;
      expect(record.created_at).toMatch(fetched);
      expect(record.updated_at).toMatch(fetched);
      // Without the opt-in, the era changes no date: RFC 3339 in UTC.
      expect((await fetchOne(core, 'abc')).body.created_at).toMatch(/Z$/);
    }
  });

  it("with nullable too, one walk: a nested config's dates take the era's form as its nulls are filled", async () => {
    const core = createMockCore({ era: '0.19', profile: 'minimal' });
    const [evaluation] = (await create(core, 'eraDates=true, nullable=true, state=finished')).body;
    const [config] = evaluation.aggregated_results.map((result: any) => result.evaluator_config);
    expect(config.settings_values).toBeNull();
    expect(config.created_at).toMatch(zulu);
    expect(evaluation.average_cost).toBeNull();
    expect(evaluation.created_at).toMatch(zulu);
    const record = (await fetchOne(core, 'abc', 'eraDates=true, nullable=true')).body;
    expect(record.created_at).toMatch(spaced);
  });

  it('eraDates without an era: a 400 naming era per request, a setup error at start, exit 2 from the CLI', async () => {
    const answer = await fetchOne(createMockCore(), 'abc', 'eraDates=true');
    expect(answer.status).toBe(400);
    expect(answer.body.detail).toMatch(/eraDates.*era=0\.17/);
    expect(() => createMockCore({ scenario: { eraDates: true } })).toThrow(MockSetupError);
    const cli = await runCli(['mock', '--era-dates', '--port', '0']);
    expect(cli.code).toBe(2);
    expect(cli.stderr).toMatch(/--era-dates.*--era/);
  });

  it('refuses an era that is not a release, naming the accepted values', async () => {
    expect(() => createMockCore({ era: '2024' })).toThrow(/era.*0\.17, 0\.18, 0\.19/);
    const answer = await fetchOne(createMockCore(), 'abc', 'era=latest');
    expect(answer.status).toBe(400);
    const cli = await runCli(['mock', '--era', 'newest', '--port', '0']);
    expect(cli.code).toBe(2);
    expect(cli.stderr).toMatch(/--era: .*0\.17, 0\.18, 0\.19/);
  });

  it('every record stays valid under an era without eraDates', async () => {
    for (let seed = 0; seed < 20; seed++) {
      const core = createMockCore({ seed, era: seed % 2 ? '0.17' : '0.19' });
      expectEvaluations((await create(core)).body);
      expectValid('HumanEvaluation', (await fetchOne(core, `x${seed}`)).body);
    }
  });
});
