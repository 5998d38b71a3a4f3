import fc from 'fast-check';
import { seedFrom } from '../../generators/index.js';
import { invalidCases } from '../../generators/invalid.js';
import type { Exchange } from '../../http/exchange.js';
import { catalogue, type CheckId } from '../judge/catalogue.js';
import { finding as findingOf, type Finding } from '../judge/define.js';
import type { Counterexample } from '../report/model.js';
import { arbitraryFor } from './arbitraries.js';
import { createRequest } from './requests.js';
import { RunStopped, type Session } from './session.js';

interface Case {
  rule?: string;
  body: Record<string, unknown>;
}

/** The property checks, in the order the run evaluates them. */
export const propertyChecks = [
  'create.properties.valid',
  'create.properties.invalid.5xx',
  'create.properties.invalid.rejected',
] as const satisfies readonly CheckId[];
type PropertyId = (typeof propertyChecks)[number];

/** The checks judging each kind of case: valid and invalid bodies never coincide, so a cached body has one kind. */
const judgedBy: Record<'valid' | 'invalid', readonly PropertyId[]> = {
  valid: ['create.properties.valid'],
  invalid: ['create.properties.invalid.5xx', 'create.properties.invalid.rejected'],
};

/** A property check's definition: its judge of one answer, and the fix for a counterexample. */
function propertyOf(id: PropertyId) {
  const { property, propertyHint } = catalogue.find((check) => check.id === id) ?? {};
  if (!property) throw new Error(`${id} has no property`);
  return { property, propertyHint };
}

/**
 * What the properties keep of an answer: whether anything listened, and each property's finding. Not the body:
 * cached per case, a hostile deployment's 4 MB bodies would add up to gigabytes.
 */
interface Judged {
  unreachable: boolean;
  findings: Map<PropertyId, Finding | undefined>;
}

export interface PropertyOptions {
  examples: number;
  seed: string;
}

/** Why one property's run ended early, and the body to blame when the deployment went away. */
interface Halt {
  reason?: string;
  culprit?: string;
}

/**
 * Property-based create requests: half valid (built from the schema), half invalid (one rule broken by invalidCases).
 * Each response is fetched once and cached by body, so the properties that judge the same cases share requests,
 * and shrinking never resends a body already tried. Counterexamples go to `found` as they are shrunk, so they
 * survive a run that stops midway.
 */
class PropertyRun {
  private readonly cache = new Map<string, Promise<Judged>>();
  /** The body sent last before the current one: when nothing listens any more, the one that brought it down. */
  private previous: string | undefined;
  private sending: string | undefined;
  /** The two invalid properties judge the same inputs: drawn once. */
  private readonly drawn = new Map<fc.Arbitrary<Case>, Case[]>();
  readonly valid: fc.Arbitrary<Case>;
  readonly invalid: fc.Arbitrary<Case>;
  private readonly seed: number;

  constructor(
    private readonly session: Session,
    private readonly found: Counterexample[],
    seed: string,
  ) {
    this.valid = arbitraryFor('CreateEvaluationRequest').map(
      (body) => ({ body: session.canaries.inject(body as Record<string, unknown>) }) as Case,
    );
    this.invalid = fc.tuple(this.valid, fc.nat()).map(([{ body }, pick]): Case => {
      const cases = invalidCases('CreateEvaluationRequest', body);
      const chosen = cases[pick % cases.length];
      return { rule: chosen?.rule, body: chosen?.body as Record<string, unknown> };
    });
    this.seed = seedFrom('properties', seed) | 0;
  }

  /** The judged answer to one body, sent once whatever asks for it; `request`: the body of a valid case. */
  private post(body: string, ids: readonly PropertyId[], request?: Record<string, unknown>): Promise<Judged> {
    const cached = this.cache.get(body);
    if (cached) return cached;
    this.previous = this.sending;
    this.sending = body;
    const judge = (exchange: Exchange) => new Map(ids.map((id) => [id, propertyOf(id).property(exchange)]));
    // Judged as the session takes the answer, so its comparison with the mock knows which properties it broke; an
    // answer the session does not judge (nothing listened) is judged here.
    let findings: Judged['findings'] | undefined;
    const judgeMore = (exchange: Exchange) => {
      findings = judge(exchange);
      return ids.filter((id) => findings?.get(id) !== undefined);
    };
    const sent = { operation: 'create', outgoing: createRequest(body), role: { kind: 'property', request } } as const;
    const pending = this.session.request(sent, judgeMore).then((exchange) => ({
      unreachable: exchange.failure?.kind === 'unreachable',
      findings: findings ?? judge(exchange),
    }));
    this.cache.set(body, pending);
    return pending;
  }

  /** Whether one case holds for a property; a case that stops the run holds, and `halt` says why. */
  private async holds(id: PropertyId, input: Case, halt: Halt): Promise<boolean> {
    let judged: Judged;
    try {
      const valid = input.rule === undefined;
      judged = await this.post(
        JSON.stringify(input.body),
        judgedBy[valid ? 'valid' : 'invalid'],
        valid ? input.body : undefined,
      );
    } catch (error) {
      if (!(error instanceof RunStopped)) throw error;
      halt.reason = error.message;
      return true;
    }
    // A deployment that stopped listening fails every input alike: shrinking towards those would blame the wrong body.
    // The first such answer names the culprit: the cases tried after it would blame each other.
    if (judged.unreachable) {
      if (halt.reason === undefined) {
        halt.reason = this.session.stoppedAfter ?? 'the deployment stopped answering';
        halt.culprit = this.previous;
      }
      return true;
    }
    return judged.findings.get(id) === undefined;
  }

  /**
   * fc.sample draws the very inputs fc.check draws for this seed (test/contract/concurrency.test.ts checks it): they
   * are sent ahead, as many at once as the pacing allows, and fc.check runs and shrinks serially on their answers.
   */
  private async sendInputsAhead(arbitrary: fc.Arbitrary<Case>, numRuns: number): Promise<Case[]> {
    const inputs = this.drawn.get(arbitrary) ?? fc.sample(arbitrary, { numRuns, seed: this.seed });
    this.drawn.set(arbitrary, inputs);
    const bodies = new Set(inputs.map((input) => JSON.stringify(input.body)));
    await this.session.sendAhead(
      [...bodies].filter((body) => !this.cache.has(body)).map((body) => createRequest(body)),
    );
    return inputs;
  }

  /** Records a counterexample against the property, with the curl command that replays it. */
  private counterexample(id: PropertyId, finding: Finding, body: string, shrinks: number): void {
    const curl = this.session.curl(createRequest(body));
    this.session.verdicts.fail(id, finding, curl);
    this.session.verdicts.hint(id, propertyOf(id).propertyHint);
    this.found.push({ check: id, finding: finding.text, body: this.session.redact(body), curl, shrinks });
  }

  /** Ends the run when the deployment stopped answering; `blame`: the body that brought it down is a finding. */
  private stopIfHalted(id: PropertyId, halt: Halt, blame: boolean): void {
    if (halt.reason === undefined) return;
    this.session.verdicts.fail('create.transport', findingOf(halt.reason, 'stopped answering'));
    if (blame && halt.culprit !== undefined) {
      // Unshrunk: shrinking against a deployment that is gone would blame any body.
      const finding = findingOf(
        'the deployment closed right after answering this request: nothing listens any more (not shrunk)',
        'closed right after answering',
      );
      this.counterexample(id, finding, halt.culprit, 0);
    }
    throw new RunStopped(halt.reason);
  }

  /** Runs one property over `numRuns` cases, shrinking its first failure. */
  async check(id: PropertyId, arbitrary: fc.Arbitrary<Case>, numRuns: number): Promise<void> {
    if (numRuns === 0) {
      this.session.verdicts.skip(id, 'no examples of this kind (--examples too small)');
      return;
    }
    const halt: Halt = {};
    const inputs = await this.sendInputsAhead(arbitrary, numRuns);
    const property = fc.asyncProperty(arbitrary, (input) => this.holds(id, input, halt));
    const details = await fc.check(property, { numRuns, seed: this.seed });
    // fc.check stops at the first failure; the answers sent ahead for later inputs are still judged, for echoed
    // secrets.
    for (const input of inputs) await this.holds(id, input, halt);
    if (!details.failed || !details.counterexample) {
      if (halt.reason === undefined) this.session.verdicts.pass(id);
      this.stopIfHalted(id, halt, true);
      return;
    }
    const [input] = details.counterexample;
    const body = JSON.stringify(input.body);
    const answer = (await this.post(body, [id])).findings.get(id) ?? findingOf('failed', 'failed');
    const rule = input.rule ? `${input.rule}: ` : '';
    // The rule the shrunk case breaks is drawn by the seed: the cause is the answer's alone.
    const text = `${rule}${answer.text} (shrunk ${details.numShrinks} times; see the curl command)`;
    this.counterexample(id, { text, cause: answer.cause }, body, details.numShrinks);
    this.stopIfHalted(id, halt, false);
  }
}

/** Runs the three properties in order: ceil(N/2) valid cases, floor(N/2) invalid ones judged twice. */
export async function runProperties(
  session: Session,
  options: PropertyOptions,
  found: Counterexample[],
): Promise<void> {
  const run = new PropertyRun(session, found, options.seed);
  const validRuns = Math.ceil(options.examples / 2);
  const invalidRuns = options.examples - validRuns;
  await run.check('create.properties.valid', run.valid, validRuns);
  await run.check('create.properties.invalid.5xx', run.invalid, invalidRuns);
  await run.check('create.properties.invalid.rejected', run.invalid, invalidRuns);
}
