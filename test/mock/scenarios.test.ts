import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import request from 'supertest';
import { afterAll, describe, expect, it } from 'vitest';
import { createMockApp, MockSetupError, parsePrefer, scenarioCodes, startMockServer } from '../../mock/index.js';
import { declaredProperties } from '../../schemas/index.js';
import { createRequest, expectEvaluations, expectValid } from './helpers.js';
import { parseScenarioFile, ScenarioBook } from '../../mock/core/scenario-book.js';
import { ScenarioStore } from '../../mock/control/scenario-store.js';
import { removeTempDirs, tempDir } from '../helpers/temp-dirs.js';

afterAll(removeTempDirs);

const app = createMockApp();
const get = (prefer?: string, target = app) => {
  const req = request(target).get('/human-evaluations/abc');
  return prefer ? req.set('Prefer', prefer) : req;
};
const post = (prefer?: string, target = app) => {
  const req = request(target).post('/evaluations').send(createRequest());
  return prefer ? req.set('Prefer', prefer) : req;
};

describe('Prefer: code=N', () => {
  const errorCodes = scenarioCodes.filter((code) => code !== 200);

  it('answers each error code with a FastAPI-shaped body, for both operations', async () => {
    expect(errorCodes).toEqual(expect.arrayContaining([401, 403, 404, 422, 500, 503]));
    for (const code of errorCodes) {
      for (const send of [get, post]) {
        const res = await send(`code=${code}`)
          .expect(code)
          .expect('Content-Type', /application\/json/);
        expect(Object.keys(res.body)).toEqual(['detail']);
        if (code === 422)
          expect(res.body.detail[0]).toEqual({
            loc: expect.any(Array),
            msg: expect.any(String),
            type: expect.any(String),
          });
        else expect(typeof res.body.detail).toBe('string');
      }
    }
  });

  it('sends realistic details and the headers that go with them', async () => {
    expect((await get('code=404').expect(404)).body).toEqual({ detail: 'Evaluation not found' });
    expect((await post('code=404').expect(404)).body).toEqual({ detail: 'App not found' });
    expect((await post('code=422').expect(422)).body).toEqual({
      detail: [{ loc: ['body', 'rate_limit'], msg: 'field required', type: 'value_error.missing' }],
    });
    expect((await get('code=401').expect(401)).headers['www-authenticate']).toBe('Bearer');
    expect((await get('code=503').expect(503)).headers['retry-after']).toBe('30');
    expect((await post('code=429').expect(429)).headers['retry-after']).toBe('5');
  });

  it('code=200 answers normally, even when the server scenario sets a code', async () => {
    const failing = createMockApp({ scenario: { code: 503 } });
    await get(undefined, failing).expect(503);
    const res = await get('code=200', failing).expect(200);
    expectValid('HumanEvaluation', res.body);
  });

  it('echoes the applied preferences in Preference-Applied', async () => {
    const res = await get('code=404; latency="0"').expect(404);
    expect(res.headers['preference-applied']).toBe('code=404, latency=0');
  });

  it('suggests the key or value a typo meant, and nothing for a word far from any', async () => {
    const detail = async (prefer: string) => (await get(prefer).expect(400)).body.detail as string;
    expect(await detail('progres=2000')).toMatch(/^unknown scenario key 'progres'; did you mean progress\? \(keys: /);
    expect(await detail('state=faild')).toMatch(
      /^scenario key 'state' does not accept 'faild'; did you mean failed\? /,
    );
    expect(await detail('fault=rest')).toMatch(/; did you mean reset\? It accepts reset, truncate$/);
    // Every key of a listed value suggests: codes, booleans, profiles, eras.
    expect(await detail('code=4044')).toMatch(/'4044'; did you mean 404\? It accepts 200, 401/);
    expect(await detail('nullable=ture')).toMatch(/; did you mean true\?/);
    expect(await detail('profile=ful')).toMatch(/; did you mean full\?/);
    // A state in full is suggested in full.
    expect(await detail('state=EVALUATION_FAILD')).toMatch(/'EVALUATION_FAILD'; did you mean EVALUATION_FAILED\? /);
    // Two values as near as each other are no guess: 40 is one digit from 401, 403 and 404.
    expect(await detail('code=40')).toMatch(/^scenario key 'code' accepts 200, 401/);
    // A release the eras do not know is refused saying so, never answered as another era nor guessed one.
    for (const release of ['0.1', 'v0.14.2', '0.9'])
      expect(await detail(`era=${release}`)).toMatch(
        new RegExp(
          `^scenario key 'era' does not accept '${release}', a release before v0\\.15\\.0, which no era describes\\. ` +
            'It accepts 0.17, 0.18, 0.19 ',
        ),
      );
    expect(await detail('era=0.19x')).toMatch(/'0.19x'; did you mean 0.19\? /);
    expect(await detail('banana=1')).not.toMatch(/did you mean/);
    expect(await detail(`${'x'.repeat(5000)}=1`)).not.toMatch(/did you mean/);
  });

  it("names only the keys an operation applies: progress is a fetch's, strictNulls a create's", async () => {
    const prefer = 'progress=1000, strictNulls=true, latency=0';
    expect((await get(prefer).expect(200)).headers['preference-applied']).toBe('latency=0, progress=1000');
    expect((await post(prefer).expect(200)).headers['preference-applied']).toBe('latency=0, strictNulls=true');
  });
});

describe('Prefer: state, profile, seed, nullable', () => {
  it('state accepts the full name or the part after EVALUATION_, and sets HumanEvaluation.status too', async () => {
    const created = await post('state=finished_with_errors').expect(200);
    for (const evaluation of expectEvaluations(created.body))
      expect(evaluation.status.value).toBe('EVALUATION_FINISHED_WITH_ERRORS');
    const failed = await post('state=EVALUATION_FAILED').expect(200);
    for (const evaluation of expectEvaluations(failed.body)) {
      expect(evaluation.status.error.message).toBe('Evaluation Failed');
    }
    const human = await get('state=started').expect(200);
    expectValid('HumanEvaluation', human.body);
    expect(human.body.status).toBe('EVALUATION_STARTED');
  });

  it('profile and seed change the generated body, per request', async () => {
    const plain = await get().expect(200);
    const seeded = await get('seed=42').expect(200);
    expect(seeded.text).not.toBe(plain.text);
    expect((await request(createMockApp({ seed: 42 })).get('/human-evaluations/abc')).text).toBe(seeded.text);
    const edge = await post('profile=edge, state=finished').expect(200);
    expectEvaluations(edge.body);
  });

  it('nullable sends every absent optional field as null, at every level (outside the spec)', async () => {
    const res = await post('nullable=true, profile=minimal, state=failed').expect(200);
    for (const evaluation of res.body) {
      for (const field of ['testset_id', 'testset_name', 'average_cost', 'total_cost', 'average_latency'])
        expect(evaluation[field]).toBeNull();
      expect(evaluation.status.error.stacktrace).toBeNull();
    }
    const finished = await post('nullable=true, profile=minimal, state=finished').expect(200);
    for (const evaluation of finished.body) {
      for (const aggregated of evaluation.aggregated_results) {
        expect(aggregated.evaluator_config).toHaveProperty('settings_values', null);
        expect(aggregated.result).toHaveProperty('error');
      }
    }
    // Without the flag, nothing is null that the profile leaves out.
    for (const evaluation of (await post('profile=minimal, state=failed').expect(200)).body)
      expect(evaluation).not.toHaveProperty('testset_name');
  });

  it("nullable sends the nulls in their fields' places, as pydantic serializes a model", async () => {
    const [evaluation] = (await post('nullable=true, profile=minimal, state=finished').expect(200)).body;
    expect(Object.keys(evaluation)).toEqual(declaredProperties('Evaluation'));
    expect(Object.keys(evaluation.status)).toEqual(declaredProperties('Result'));
    expect(Object.keys(evaluation.aggregated_results[0].evaluator_config)).toEqual(
      declaredProperties('EvaluatorConfig'),
    );
  });
});

describe('Prefer: latency and fault', () => {
  it('latency delays the answer and keeps it whole', async () => {
    const res = await get('latency=20').expect(200);
    expectValid('HumanEvaluation', res.body);
    expect(res.headers['preference-applied']).toBe('latency=20');
  });

  it('latency applies to a 422 too, which still arrives as JSON after the wait', async () => {
    const res = await request(app)
      .post('/evaluations')
      .set('Prefer', 'latency=5-10')
      .send(createRequest({ app_id: 1 }))
      .expect(422);
    expect(res.body.detail).toEqual([
      expect.objectContaining({ type: 'string_type', loc: ['body', 'app_id'], input: 1 }),
    ]);
  });

  it('fault=reset drops the connection, fault=truncate sends half the body', async () => {
    const server = await startMockServer({ port: 0 });
    try {
      await expect(
        fetch(`${server.url}/human-evaluations/abc`, { headers: { Prefer: 'fault=reset' } }),
      ).rejects.toThrow();
      const truncated = await fetch(`${server.url}/human-evaluations/abc`, { headers: { Prefer: 'fault=truncate' } });
      expect(truncated.status).toBe(200);
      await expect(truncated.text()).rejects.toThrow();
      // A fault breaks error answers too: the client sees a 503 it cannot read.
      const broken = await fetch(`${server.url}/evaluations`, {
        method: 'POST',
        headers: { Prefer: 'code=503, fault=truncate', 'Content-Type': 'application/json' },
        body: JSON.stringify(createRequest()),
      });
      expect(broken.status).toBe(503);
      await expect(broken.json()).rejects.toThrow();
      // The server is unharmed.
      expect((await fetch(`${server.url}/human-evaluations/abc`)).status).toBe(200);
    } finally {
      await server.close();
    }
  });
});

describe('server-wide scenarios', () => {
  function scenarioFile(content: unknown): string {
    const file = join(tempDir('evalkit-scenarios-'), 'scenarios.json');
    writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content));
    return file;
  }

  it('apply from options to every request, and a Prefer header overrides them key by key', async () => {
    const failing = createMockApp({ scenario: { state: 'failed', code: 500 } });
    await post(undefined, failing).expect(500);
    const res = await post('code=200', failing).expect(200);
    for (const evaluation of expectEvaluations(res.body)) expect(evaluation.status.value).toBe('EVALUATION_FAILED');
  });

  it('apply from a config file: server-wide, per operation, per human evaluation id', async () => {
    const file = scenarioFile({
      scenario: { state: 'EVALUATION_STARTED' },
      operations: { createEvaluations: { state: 'finished', nullable: true } },
      humanEvaluations: { 'missing-1': { code: 404 }, 'broken-1': { code: 500 } },
    });
    const configured = createMockApp({ scenarioFile: file });
    expect((await get(undefined, configured).expect(200)).body.status).toBe('EVALUATION_STARTED');
    await request(configured).get('/human-evaluations/missing-1').expect(404);
    await request(configured).get('/human-evaluations/broken-1').expect(500);
    await request(configured).get('/human-evaluations/broken-1').set('Prefer', 'code=200').expect(200);
    const created = await post(undefined, configured).expect(200);
    for (const evaluation of created.body) {
      expect(evaluation.status.value).toBe('EVALUATION_FINISHED');
      expect(evaluation.status.error).toBeNull();
    }
  });

  it("options override the file's server-wide section", async () => {
    const file = scenarioFile({ scenario: { state: 'failed', seed: 3 } });
    const res = await get(undefined, createMockApp({ scenarioFile: file, scenario: { state: 'finished' } })).expect(
      200,
    );
    expect(res.body.status).toBe('EVALUATION_FINISHED');
    expect(res.text).toBe((await get('seed=3, state=finished').expect(200)).text);
  });

  it('refuse to start on a bad file or value, naming the file and the entry', () => {
    const cases: Array<[unknown, RegExp]> = [
      ['{not json', /not valid JSON/],
      [[], /top level must be an object/],
      [{ scenarios: {} }, /unknown section 'scenarios'/],
      [{ operations: { deleteEvaluation: {} } }, /unknown operation 'deleteEvaluation'/],
      [{ humanEvaluations: { x: { code: 418 } } }, /humanEvaluations\.x: scenario key 'code' accepts/],
      [{ scenario: { latency: '500-100' } }, /scenario: scenario key 'latency' accepts/],
    ];
    for (const [content, message] of cases) {
      const file = scenarioFile(content);
      expect(() => createMockApp({ scenarioFile: file })).toThrow(MockSetupError);
      expect(() => createMockApp({ scenarioFile: file })).toThrow(message);
      expect(() => createMockApp({ scenarioFile: file })).toThrow(file);
    }
    expect(() => createMockApp({ scenarioFile: '/nonexistent/scenarios.json' })).toThrow(/no such file/);
    // A folder is named as one (it was 'not valid JSON').
    const folder = tempDir('evalkit-scenarios-');
    expect(() => createMockApp({ scenarioFile: folder })).toThrow(`${folder}: a folder, not a file`);
    expect(() => createMockApp({ scenario: { fault: 'explode' } })).toThrow(/'fault' accepts reset, truncate/);
    expect(() => createMockApp({ basePath: 'api/../x' })).toThrow(/base path/);
  });
});

describe('parsePrefer', () => {
  it('reads Prism-style preferences separated by commas or semicolons', () => {
    expect(parsePrefer('code=404')).toEqual({ code: 404 });
    expect(parsePrefer(' state=failed ; latency=100-200, nullable=true,profile=edge, seed="x y"')).toEqual({
      state: 'EVALUATION_FAILED',
      latency: { min: 100, max: 200 },
      nullable: true,
      profile: 'edge',
      seed: 'x y',
    });
  });

  it("passes by RFC 7240's own preferences, which a shared HTTP client may send to every API", async () => {
    expect(parsePrefer('return=representation')).toEqual({});
    expect(parsePrefer('respond-async, wait=10, handling=lenient, Return=minimal, state=failed')).toEqual({
      state: 'EVALUATION_FAILED',
    });
    const res = await get('return=representation, state=failed').expect(200);
    expect(res.body.status).toBe('EVALUATION_FAILED');
    expect(res.headers['preference-applied']).toBe('state=EVALUATION_FAILED');
    await post('return=minimal').expect(200);
    // Anything else still gets the 400 that catches a typo.
    expect(() => parsePrefer('returns=minimal')).toThrow(/unknown scenario key 'returns'/);
    expect(() => parsePrefer('respond-sync')).toThrow(/'respond-sync' is not key=value/);
  });

  it('keeps a quoted value whole, commas and semicolons included, and names an unclosed quote', async () => {
    expect(parsePrefer('seed="story, variant; 2", state=failed')).toEqual({
      seed: 'story, variant; 2',
      state: 'EVALUATION_FAILED',
    });
    expect(() => parsePrefer('seed="a,b')).toThrow(/Prefer: the quoted value of 'seed' is not closed/);
    const res = await get('seed="story, 2"; state=failed').expect(200);
    expect(res.headers['preference-applied']).toBe('state=EVALUATION_FAILED, seed="story, 2"');
  });
});

describe('operation names in a scenario config', () => {
  it('reads the former name createEvaluation as createEvaluations, and refuses the two together', () => {
    const former = parseScenarioFile({ operations: { createEvaluation: { state: 'failed' } } });
    expect(former.operations).toEqual({ createEvaluations: { state: 'EVALUATION_FAILED' } });
    expect(() =>
      parseScenarioFile({ operations: { createEvaluation: { code: 503 }, createEvaluations: { code: 500 } } }),
    ).toThrow(/createEvaluations names createEvaluations a second time/);
  });

  it('merges a control-room PATCH under the former name into the rule of the current one', () => {
    const holder = { current: ScenarioBook.fromData({ operations: { createEvaluations: { code: 503 } } }) };
    const store = new ScenarioStore(holder);
    expect(store.merge({ operations: { createEvaluation: { state: 'failed' } } }).operations).toEqual({
      createEvaluations: { code: 503, state: 'EVALUATION_FAILED' },
    });
  });
});
