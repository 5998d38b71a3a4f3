import type { ScenarioAnswers } from './scenario-answers.js';
import { generators, seedFrom } from '../../generators/index.js';
import { serviceEras } from '../../generators/vocabulary.js';
import type { MockAnswer, MockRequest } from './request-answer.js';
import { requestMoment, type Clock } from './clock.js';
import { HttpProblem } from './errors.js';
import type { Fixture } from './fixture-set.js';
import { cachedBodies, maxIdLength, tooLong } from './limits.js';
import { LruCache } from '../../http/lru.js';
import type { Phase, Progress } from './progress.js';
import type { RequestContext } from './sessions.js';
import { withNotes } from './request-answer.js';
import { asScenarioSends, sendsOutsideSpec } from './outside-spec.js';
import { requestScenario, respond } from './respond.js';
import { scenarioKeys, type ResolvedScenario } from './scenarios.js';
import { serialize } from './serialize.js';
import { worded } from './pydantic-words.js';
import { releaseOf } from './release-reading.js';

export interface HumanEvaluationSource {
  fixtures: ReadonlyMap<string, Fixture>;
  /** Unknown ids get 404 instead of a generated record. */
  strictIds: boolean;
  /** A record's dates are never later than the request's moment. */
  clock: Clock;
  /** Its canned error answers, by the code a scenario asks for. */
  answers: ScenarioAnswers;
}

/** What the journal says of a followed record: its phase, and when it moves on. */
function phaseNote({ state, since, next }: Phase): string {
  const at = (micros: number) => new Date(Math.floor(micros / 1000)).toISOString();
  return `progress: ${state} since ${at(since)}${next ? `, ${next.state} at ${at(next.at)}` : ' (final)'}`;
}

export type FetchHumanEvaluation = (
  id: string,
  request: MockRequest,
  headers: Record<string, string>,
  context: RequestContext,
) => MockAnswer | Promise<MockAnswer>;

/**
 * The fetch operation (fetchHumanEvaluation in api/operations.ts): the fixture of that id, or a record generated from
 * (seed, id) whose id is the one asked for, so the same id always gets the same body and different ids get different
 * ones. Generated bodies are kept serialized in an LRU cache: a repeated id costs a map lookup.
 */
export function fetchHumanEvaluation(source: HumanEvaluationSource): FetchHumanEvaluation {
  const cache = new LruCache<string, Uint8Array>(cachedBodies);

  function generated(id: string, scenario: ResolvedScenario, progress: Progress, notes: string[]): Uint8Array {
    // Without a pinned moment the clock only moves on: a body cached at an earlier moment is never later than now.
    // Every scenario key is in the key, so one that shapes the body cannot be missed; the others cost a cache miss.
    const { profile, seed, era } = scenario;
    // The clock is read on a cache miss only, unless the record is followed (progress): a repeated GET stays a lookup.
    const followedAt = scenario.progress === undefined ? undefined : requestMoment(scenario, source.clock);
    const phase =
      followedAt === undefined || scenario.progress === undefined
        ? undefined
        : progress.phaseOf(id, followedAt, scenario.progress, scenario.state ?? 'EVALUATION_FINISHED');
    if (phase) notes.push(phaseNote(phase));
    const followed = phase ? `\n${phase.createdAt}\n${phase.since}` : '';
    const key = `${scenarioKeys.map((name) => String(scenario[name])).join('\n')}${followed}\n${id}`;
    let body = cache.get(key);
    if (!body) {
      const record = generators.HumanEvaluation(seedFrom(seed, id), {
        profile,
        id,
        status: phase?.state ?? scenario.state,
        notAfter: followedAt ?? requestMoment(scenario, source.clock),
        ...(phase && { period: { createdAt: phase.createdAt, updatedAt: phase.since } }),
        idStyle: era === undefined ? undefined : serviceEras[era].idStyle,
      });
      body = serialize(asScenarioSends('fetchHumanEvaluation', record, scenario));
      cache.set(key, body);
    }
    return body;
  }

  function fromFixture(fixture: Fixture, scenario: ResolvedScenario): Uint8Array {
    // A fixture is served as written unless the scenario changes it (a state, or a form outside the spec).
    if (scenario.state === undefined && !sendsOutsideSpec(scenario)) return fixture.body;
    const record = { ...fixture.record, status: scenario.state ?? fixture.record.status };
    return serialize(asScenarioSends('fetchHumanEvaluation', record, scenario));
  }

  return (id, request, headers, context) => {
    let scenario = requestScenario(request, headers, context.scenarios.forHumanEvaluation(id), 'fetchHumanEvaluation');
    if (id.length > maxIdLength)
      throw new HttpProblem(422, [worded(releaseOf(scenario).validation, tooLong(['path', 'evaluation_id'], id))]);
    const fixture = source.fixtures.get(id);
    // An unknown id under strict ids is a 404 with the scenario's latency and fault, unless a code was asked for.
    if (!fixture && source.strictIds) scenario = { ...scenario, code: scenario.code ?? 404 };
    const notes: string[] = [];
    const answered = respond(scenario, source.answers, headers, () =>
      fixture ? fromFixture(fixture, scenario) : generated(id, scenario, context.progress, notes),
    );
    return withNotes(answered, notes);
  };
}
