import type { OperationKey } from '../../api/operations.js';
import { excerpt } from '../../http/excerpt.js';
import { ContractOptionError } from '../../http/target-options.js';
import type { CheckId } from '../judge/catalogue.js';
import { gatherDifferences, type ComparedExchange, type MockDifference } from './differences.js';
import { facetsOf, type ComparedAnswer, type Facets } from './facets.js';
import { candidateSettings, mockCommandLine, sameSettings, type MockSettings, type MockSource } from './settings.js';
import { driftOf } from './standing.js';

/** A request as the mock is asked it: its path relative to the base URL (with its query), as sent otherwise. */
export interface ComparedRequest {
  method: string;
  path: string;
  headers: Readonly<Record<string, string>>;
  body?: string;
}

/** What answers a request in the deployment's place: the mock core, made by the caller (contract/ never imports it). */
export type MockAnswerer = (request: ComparedRequest) => Promise<ComparedAnswer>;

/** `--compare-mock`: the mock that answers beside the deployment, and how to make it under other settings. */
export interface MockComparisonOptions {
  /** The settings given (`--mock-era`, ...). */
  given: MockSettings;
  /** The given scenarios file and the deployment's base path, for the command lines. */
  source: MockSource;
  /**
   * A mock under these settings (the given scenarios file kept); undefined for settings the mock refuses with that
   * file (its `eraDates` without an era), which are then never suggested.
   */
  answererFor(settings: MockSettings): MockAnswerer | undefined;
  /** A difference that remains fails the run. */
  failOnDrift?: boolean;
  /** Ids of differences the team accepted (`--ignore FILE`): shown as accepted, they fail nothing. */
  accepted?: ReadonlySet<string>;
}

/** What `--compare-mock` found: the report's `mock` section. */
export interface MockComparison {
  /** The mock compared, as a command line. */
  command: string;
  /** Requests answered by both. */
  compared: number;
  /** Requests past the bound, answered by the deployment alone. */
  notCompared: number;
  /** Every difference, the deployment's own spec violations and accepted ones included, each marked so. */
  differences: MockDifference[];
  /**
   * The closest settings and the mock's own differences that remain under them (neither the deployment's violations
   * nor accepted ones); the given settings when nothing is closer.
   */
  suggested: { command: string; settings: MockSettings; differences: MockDifference[] };
  failOnDrift: boolean;
}

/** Requests compared at most: past this a run of many property cases would keep every request in memory. */
const maxCompared = 1_000;

/** One request the deployment answered, kept to be asked of the mock again under other settings. */
interface Recorded {
  label: string;
  operation: OperationKey;
  request: ComparedRequest;
  deployment: Facets;
  answer: string;
  failedChecks: readonly CheckId[];
}

/** An answer in one line for a report: status, media type and the start of the body, redacted before it is cut. */
function answerText(answer: ComparedAnswer, redact: (text: string) => string): string {
  const type = answer.headers['content-type'];
  return `${answer.status ?? 'no answer'}${type ? ` ${String(type)}` : ''} ${excerpt(redact(answer.body))}`;
}

/** The requests of a run and the two answers of each, gathered as the run goes. */
export class MockComparer {
  private readonly recorded: Recorded[] = [];
  private readonly exchanges: ComparedExchange[] = [];
  /** The checks each compared answer failed, by the answer: one list its request's two records share. */
  private readonly failed = new WeakMap<ComparedAnswer, CheckId[]>();
  private skipped = 0;
  private readonly answer: MockAnswerer;

  constructor(
    private readonly options: MockComparisonOptions,
    private readonly redact: (text: string) => string,
  ) {
    const answer = options.answererFor(options.given);
    if (!answer) throw new ContractOptionError('--compare-mock: the mock refuses the settings it was given');
    this.answer = answer;
  }

  /**
   * Asks the mock the request the deployment answered, and keeps both answers' facets. `failedChecks`: the
   * error-level checks the deployment's answer failed, in the catalogue's order (the caller judged it; the comparison
   * never judges), so a difference they account for is told as the deployment's own violation.
   */
  async compare(
    label: string,
    operation: OperationKey,
    request: ComparedRequest,
    deployment: ComparedAnswer,
    failedChecks: readonly CheckId[] = [],
  ) {
    if (this.recorded.length >= maxCompared) {
      this.skipped++;
      return;
    }
    const facets = facetsOf(deployment, operation);
    const answer = answerText(deployment, this.redact);
    const failed = [...failedChecks];
    this.failed.set(deployment, failed);
    this.recorded.push({ label, operation, request, deployment: facets, answer, failedChecks: failed });
    const mock = await this.answer(request);
    this.exchanges.push({
      label,
      operation,
      deployment: facets,
      mock: facetsOf(mock, operation),
      answers: { deployment: answer, mock: answerText(mock, this.redact) },
      failedChecks: failed,
    });
  }

  /**
   * A check an answer compared earlier turned out to fail once later requests were judged: a create refused with all
   * the other key names at once is a violation only once the names sent alone show which are refused.
   */
  alsoFailed(deployment: ComparedAnswer, check: CheckId): void {
    this.failed.get(deployment)?.push(check);
  }

  /** The same requests answered by a fresh mock under these settings, compared; undefined if it refuses them. */
  private async differencesUnder(settings: MockSettings): Promise<MockDifference[] | undefined> {
    const answer = this.options.answererFor(settings);
    if (!answer) return undefined;
    const exchanges: ComparedExchange[] = [];
    for (const { label, operation, request, deployment, answer: deploymentText, failedChecks } of this.recorded) {
      const mock = await answer(request);
      exchanges.push({
        label,
        operation,
        deployment,
        mock: facetsOf(mock, operation),
        answers: { deployment: deploymentText, mock: answerText(mock, this.redact) },
        failedChecks,
      });
    }
    return gatherDifferences(exchanges, this.accepted);
  }

  private get accepted(): ReadonlySet<string> {
    return this.options.accepted ?? new Set();
  }

  /**
   * The given mock's differences, and the settings closest to the deployment (`closer`): every combination the mock
   * accepts is tried on every request compared, simplest first (candidateSettings); the given settings stay unless
   * others are closer, so a suggestion never takes a flag away for nothing.
   */
  async result(): Promise<MockComparison> {
    const { given, source } = this.options;
    const differences = gatherDifferences(this.exchanges, this.accepted);
    let best = { settings: given, differences };
    for (const settings of candidateSettings()) {
      if (best.differences.length === 0) break;
      if (sameSettings(settings, given)) continue;
      const under = await this.differencesUnder(settings);
      if (under && closer(under, best.differences)) best = { settings, differences: under };
    }
    return {
      command: mockCommandLine(given, source),
      compared: this.recorded.length,
      notCompared: this.skipped,
      differences,
      suggested: {
        command: mockCommandLine(best.settings, source),
        settings: best.settings,
        differences: driftOf(best.differences),
      },
      failOnDrift: this.options.failOnDrift ?? false,
    };
  }
}

/**
 * Whether one setting's differences are closer to the deployment than another's: fewer of the mock's own first
 * (neither the deployment's violations nor accepted ones count), then fewer of any kind. The second decides between
 * settings the first leaves equal: `--era-dates` exists to imitate a violation (naive dates) and an era's may remove an
 * accepted difference, and neither would be suggested otherwise. Among equals, the first tried (the simplest) stays.
 */
function closer(differences: readonly MockDifference[], than: readonly MockDifference[]): boolean {
  const own = driftOf(differences).length;
  const otherOwn = driftOf(than).length;
  return own < otherOwn || (own === otherOwn && differences.length < than.length);
}

/**
 * Whether the comparison fails the run: with `failOnDrift`, any of the mock's own differences the team has not
 * accepted; never the deployment's own spec violations, which its checks report.
 */
export function driftFails(comparison: MockComparison | undefined): boolean {
  return comparison !== undefined && comparison.failOnDrift && driftOf(comparison.differences).length > 0;
}
