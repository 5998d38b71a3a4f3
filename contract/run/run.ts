import { changesData, operationByKey, operationIds, operationLabel } from '../../api/operations.js';
import { generators } from '../../generators/index.js';
import { formatIssue, validate } from '../../schemas/validators/index.js';
import { defaultClientOptions, type ClientOptions } from '../../http/client.js';
import { isSuccessStatus } from '../../http/exchange.js';
import { excessiveNesting } from '../../http/json-body.js';
import { secretPlaceholder } from '../../http/placeholders.js';
import { credentialsOf, publicUrl, type Secret } from '../../http/redaction.js';
import { catalogue } from '../judge/catalogue.js';
import { Verdicts } from '../judge/verdicts.js';
import { credentialsHint } from '../judge/hints.js';
import { checkHeaders, ContractOptionError, parseBaseUrl } from '../../http/target-options.js';
import { dotSegmentRefusal, isDotSegment } from '../../api/match.js';
import type { Traffic } from '../../http/traffic.js';
import { buildReport, type Counterexample, type ReplayReport, type Report } from '../report/model.js';
import { statusCounts, type CoverageMinimum } from '../report/coverage.js';
import { Canaries, keyValues } from './canaries.js';
import { fetchWithTrailingSlash } from './fetch.js';
import { defaultConcurrency, maxConcurrency, parseRate, type PacingOptions } from './pacing.js';
import { createProbes } from './probes.js';
import type { DeploymentRecords } from './deployment-records.js';
import { heldId, recordFlags, runOperations, type RunContext } from './operations.js';
import { replacedBy, replayTraffic, unheldIds } from './replay.js';
import { askForStates } from './states.js';
import { RunStopped, Session, UnreachableError } from './session.js';
import { MockComparer, type MockComparisonOptions } from '../compare/comparison.js';

export interface ContractOptions {
  /** May carry a path: `https://host/api`. */
  baseUrl: string;
  /**
   * The deployment's own records, by operation: `fetchHumanEvaluation`, an id that exists there (default: the schema's
   * example id, which mocks serve); `createEvaluations`, a create request valid there (default: a generated one).
   */
  deployment?: DeploymentRecords;
  /** Sent with every request (auth); never reported. */
  headers?: Record<string, string>;
  timeoutMs?: number;
  /** Sends no request that could create data. */
  readOnly?: boolean;
  /** Property-based create requests, half valid and half invalid. */
  examples?: number;
  seed?: string;
  /** Requests in flight at once (default 4, safe for a shared staging server). The report is the same at any value. */
  concurrency?: number;
  /** Requests started per second at most: a number, or text such as `5/s`. Default: no cap. */
  rateLimit?: number | string;
  /** PEM certificates of the CAs to trust (self-signed or private CAs). */
  ca?: string;
  /** Skips certificate verification; every report says so. */
  insecure?: boolean;
  /** Failed warnings fail the run too. */
  strict?: boolean;
  /**
   * The app's recorded requests (a journal export, a proxy --record folder), sent in place of the generated steps:
   * `source` names where they were read from.
   */
  replay?: { source: string; traffic: Traffic };
  /** The least coverage the run must reach, in percent (parseMinimumCoverage): under it, the run fails. */
  minCoverage?: CoverageMinimum;
  /**
   * Each request also answered by a mock (the caller makes it: contract/ never imports the mock) and the two answers
   * compared on what a frontend sees: the report's `mock` section. The verdict stays the run's, unless `failOnDrift`.
   */
  compareMock?: MockComparisonOptions;
  /**
   * The ids the team accepts (`--ignore FILE`): a finding with one is listed as accepted and fails nothing, and so is a
   * `compareMock` difference with one; the report's `baseline` names those found and those no longer found (stale).
   */
  accepted?: ReadonlySet<string>;
}

function pacingOptions(options: ContractOptions): PacingOptions {
  const concurrency = options.concurrency ?? defaultConcurrency;
  if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > maxConcurrency) {
    throw new ContractOptionError(`--concurrency must be an integer from 1 to ${maxConcurrency}, got '${concurrency}'`);
  }
  if (options.rateLimit === undefined) return { concurrency };
  const ratePerSecond = parseRate(String(options.rateLimit));
  if (ratePerSecond === undefined)
    throw new ContractOptionError(
      '--rate-limit must be requests per second above 0 and up to 10000, such as 5/s or 0.5/s, ' +
        `got '${options.rateLimit}'`,
    );
  return { concurrency, ratePerSecond };
}

/** A create body the user gave must be one the run can send: not absurdly nested, and a valid create request. */
function checkCreateBody(body: Record<string, unknown> | undefined): void {
  if (body === undefined) return;
  const nesting = excessiveNesting(body);
  if (nesting) throw new ContractOptionError(`the create body is ${nesting}`);
  const { issues } = validate('CreateEvaluationRequest', body);
  if (issues.length > 0)
    throw new ContractOptionError(
      `the create body is not a valid create request: ${issues.map(formatIssue).join(', ')}`,
    );
}

/** Everything a run is about to do, settled from the options before the first request. */
interface Plan extends RunContext {
  options: ContractOptions;
  baseUrl: URL;
  /** With --replay, filled as the recorded requests are sent. */
  replayed: ReplayReport | undefined;
  /** With --compare-mock: each answer beside the mock's. */
  comparer: MockComparer | undefined;
}

/**
 * An id is data for one path segment: `..` would send the run's credentials to another path of the deployment. Each
 * deployment id the run would put in a path, refused so.
 */
function checkPathIds(deployment: DeploymentRecords): void {
  for (const id of operationIds) {
    const held = deployment[id];
    if (typeof held === 'string' && isDotSegment(held))
      throw new ContractOptionError(dotSegmentRefusal(runOperations[id].recordFlag, held));
  }
}

/** The comparison's accepted differences with the run's accepted ids: one --ignore file serves both. */
function withAccepted(
  compare: MockComparisonOptions,
  accepted: ReadonlySet<string> | undefined,
): MockComparisonOptions {
  if (accepted === undefined) return compare;
  return { ...compare, accepted: new Set([...(compare.accepted ?? []), ...accepted]) };
}

/** Validates the options and sets the run up; throws ContractOptionError for options no run could use. */
function plan(options: ContractOptions): Plan {
  const baseUrl = parseBaseUrl(options.baseUrl);
  const deployment = options.deployment ?? {};
  checkPathIds(deployment);
  const validBody = deployment.createEvaluations;
  const seed = options.seed ?? '1';
  checkCreateBody(validBody);
  const verdicts = new Verdicts(options.accepted);
  const canaries = new Canaries(seed);
  const headers = options.headers ?? {};
  checkHeaders(headers);
  const client: ClientOptions = {
    timeoutMs: options.timeoutMs ?? defaultClientOptions.timeoutMs,
    maxBodyBytes: defaultClientOptions.maxBodyBytes,
    ca: options.ca,
    insecure: options.insecure,
  };
  const secrets: Secret[] = [
    ...credentialsOf(baseUrl, headers),
    ...keyValues(validBody).map((value) => ({ value, placeholder: secretPlaceholder })),
  ];
  // The comparer cuts answers for the report only once the session's redactor has had them.
  const redact = (text: string) => session.redact(text);
  const comparer = options.compareMock && new MockComparer(withAccepted(options.compareMock, options.accepted), redact);
  const session: Session = new Session(
    { baseUrl, headers, client, secrets, pacing: pacingOptions(options), ...(comparer ? { comparer } : {}) },
    verdicts,
    canaries,
  );
  const request = canaries.inject(
    validBody ?? (generators.CreateEvaluationRequest(seed, { profile: 'full' }) as Record<string, unknown>),
  );
  const readOnly = options.readOnly ?? false;
  return {
    options,
    baseUrl,
    seed,
    session,
    verdicts,
    readOnly,
    examples: options.examples ?? 0,
    deployment,
    request,
    probes: createProbes(request, readOnly),
    replayed: options.replay && { source: options.replay.source, replayed: 0, refused: [], skipped: [] },
    comparer,
  };
}

/** Every step of a run, in its order (docs/contract.md, Probes): each operation's part, phase by phase. */
async function runSteps(run: Plan, found: Counterexample[]): Promise<void> {
  const { options, session, deployment } = run;
  if (options.replay && run.replayed)
    return replayTraffic(session, options.replay.traffic, run.replayed, { readOnly: run.readOnly, ids: deployment });
  const parts = operationIds.map((id) => runOperations[id]);
  const knownIds: string[] = [];
  for (const part of parts) knownIds.push(...(await part.reach(run)));
  for (const part of parts) await part.explore?.(run, knownIds);
  const held = heldId(run);
  await askForStates(session, {
    id: held.id,
    idGiven: held.given,
    ...(run.readOnly ? {} : { request: run.request }),
    bodyGiven: deployment.createEvaluations !== undefined,
  });
  for (const part of parts) await part.refuse?.(run, found);
  if (run.comparer) await fetchWithTrailingSlash(session, held.id);
}

/** How a run ended: whether the deployment could be reached, and why it stopped early, if it did. */
interface Ending {
  reachable: boolean;
  stopped?: string;
}

/** Runs the steps; a deployment that cannot be reached or keeps hanging ends the run early, with a report. */
async function runUntilStopped(run: Plan, found: Counterexample[]): Promise<Ending> {
  try {
    await runSteps(run, found);
    return { reachable: true };
  } catch (error) {
    if (error instanceof UnreachableError)
      return { reachable: false, stopped: `the deployment cannot be reached: ${error.message}` };
    if (error instanceof RunStopped) return { reachable: true, stopped: error.message };
    throw error;
  }
}

/** The checks no step reached, each skipped saying why. */
function skipUnreached({ options, verdicts, session }: Plan, ending: Ending): void {
  const gone = session.stoppedAfter;
  if (gone) for (const check of catalogue) verdicts.skip(check.id, `not evaluated: ${gone}`);
  if (ending.stopped)
    for (const check of catalogue) verdicts.skip(check.id, 'not evaluated: the run stopped early (see stopped)');
  if (options.replay)
    for (const check of catalogue) verdicts.skip(check.id, 'not reached by the replayed requests (--replay)');
  if (options.readOnly)
    for (const check of catalogue.filter((candidate) => changesData(operationByKey(candidate.operation))))
      verdicts.skip(check.id, '--read-only: no valid create request sent');
}

/** The likely cause of a run that verified nothing, read off the statuses every request got (statusCounts). */
function nothingVerified(statuses: ReadonlyArray<{ status: number; count: number }>): string {
  const seen = statuses.map(({ status }) => status);
  if (seen.length === 0) return 'nothing verified: no request got a complete answer';
  if (seen.every((status) => status === 404))
    return 'nothing verified: every request was answered 404: is the path prefix in --base-url right?';
  const credentials = credentialsHint(seen);
  if (credentials) return `nothing verified: every request was answered ${seen.join('/')}: ${credentials}`;
  const answers = statuses.map(({ status, count }) => `${status} ×${count}`).join(', ');
  return `nothing verified: no success answer to check (answers: ${answers}): ${remedyOf(seen)}`;
}

/**
 * What to do when no answer was a success to check, by what every request got: unknown ids are the fix only when the
 * deployment answered, and refused, what it was sent.
 */
function remedyOf(seen: readonly number[]): string {
  if (seen.every((status) => status >= 300 && status < 400))
    return (
      'every request was redirected and the redirect not followed (see the *.transport findings): ' +
      'pass as --base-url the address the deployment answers at, or, for a login page, credentials with --header'
    );
  if (seen.every((status) => status === 429))
    return (
      'every request was rate-limited past --timeout (see the *.transport findings): ' +
      'set --rate-limit N/s or raise --timeout'
    );
  if (seen.every((status) => status >= 500))
    return 'the deployment failed every request (see the *.status.5xx findings; its logs hold the cause)';
  if (seen.some(isSuccessStatus)) return 'no success answer arrived whole (see the *.transport findings)';
  return `pass ${recordFlags.join(' and ')} that exist there`;
}

/** Why a replay verified nothing when it sent nothing: the recording, not the deployment, is the cause. */
function nothingReplayed(replay: ReplayReport): string | undefined {
  // A request the deployment held nothing for is counted a skip alone (replay.ts), never replayed too.
  const unheld = replay.skipped.filter((skip) => skip.reason.startsWith(unheldIds)).length;
  if (replay.replayed === 0 && unheld > 0)
    return (
      `nothing verified: the deployment holds none of the ids the requests in ${replay.source} name (404): ` +
      replacedBy
    );
  if (replay.replayed > 0) return undefined;
  if (replay.skipped.length > 0)
    return (
      `nothing verified: every recorded request of the two operations in ${replay.source} was skipped ` +
      '(why: under Replay)'
    );
  return (
    `nothing verified: ${replay.source} holds no request of the two operations to replay ` +
    `(${operationIds.map(operationLabel).join(', ')}): save it after the app has sent them`
  );
}

/** Checks a deployment against the contract. Never throws for anything the deployment does. */
export async function runContract(options: ContractOptions): Promise<Report> {
  const started = performance.now();
  const run = plan(options);
  const counterexamples: Counterexample[] = [];
  const ending = await runUntilStopped(run, counterexamples);
  skipUnreached(run, ending);
  const { session, verdicts } = run;
  const coverage = session.coverage.report();
  return buildReport({
    command: 'contract',
    target: publicUrl(run.baseUrl),
    reachable: ending.reachable,
    strict: options.strict ?? false,
    insecure: options.insecure ?? false,
    ...(ending.stopped || session.stoppedAnswering
      ? { stopped: session.stoppedAnswering ?? (ending.stopped as string) }
      : {}),
    checks: verdicts.results(options.accepted),
    ...(options.accepted ? { accepted: options.accepted } : {}),
    notes: verdicts.notes(),
    counterexamples,
    requests: session.requests,
    pacing: session.pacing,
    ...(run.replayed ? { replay: run.replayed } : {}),
    coverage,
    ...(options.minCoverage ? { minimumCoverage: options.minCoverage } : {}),
    ...(run.comparer ? { mock: await run.comparer.result() } : {}),
    durationMs: Math.round(performance.now() - started),
    nothingVerified: () => (run.replayed && nothingReplayed(run.replayed)) ?? nothingVerified(statusCounts(coverage)),
    redactor: session.redactor,
  });
}
