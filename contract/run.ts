import { validateHeaderName, validateHeaderValue } from 'node:http';
import { generators } from '../generators/index.js';
import { formatIssue, validate } from '../schemas/validators/index.js';
import { catalogue } from './catalogue.js';
import { checkCreate, checkProviderKeyNames, createRequest } from './checks/create.js';
import { checkFetch, checkUnknownIds, defaultHumanEvaluationId } from './checks/fetch.js';
import { defaultClientOptions } from './http-client.js';
import { excessiveNesting } from '../http/json-body.js';
import { defaultConcurrency, maxConcurrency, parseRate, type PacingOptions } from './pacing.js';
import { createProbes, probeRequest, runProbes } from './probes.js';
import { propertyChecks, runProperties, type Counterexample } from './properties.js';
import { credentialsOf, publicUrl, redactReport, type Secret } from './redaction.js';
import { secretPlaceholder } from '../http/placeholders.js';
import { Canaries, keyValues } from './secrets.js';
import { RunStopped, Session, UnreachableError, type PacingReport } from './session.js';
import { Verdicts, type CheckResult, type Note } from './verdicts.js';

export interface ContractOptions {
  /** May carry a path: `https://host/api`. */
  baseUrl: string;
  /** An id that exists there; default: the schema's example id, which mocks serve. */
  humanEvaluationId?: string;
  /** A create request valid for that deployment; default: a generated one. */
  createBody?: Record<string, unknown>;
  /** Sent with every request (auth); never reported. */
  headers?: Record<string, string>;
  timeoutMs?: number;
  maxBodyBytes?: number;
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
}

/** PASS: nothing failed that fails the run; NOTHING VERIFIED: no success answer could be checked at all. */
export type Verdict = 'PASS' | 'FAIL' | 'NOTHING VERIFIED';

export interface Summary {
  passed: number;
  failed: number;
  /** Failed warning-level checks (also counted in `failed`). */
  warnings: number;
  skipped: number;
}

export interface Report {
  /** The base URL with its credentials as placeholders. */
  target: string;
  reachable: boolean;
  verdict: Verdict;
  /** Why nothing was verified, with the likely fix, when the verdict is NOTHING VERIFIED. */
  headline?: string;
  strict: boolean;
  /** Certificates were not verified (--insecure). */
  insecure: boolean;
  /** Why the run ended early, when it did. */
  stopped?: string;
  summary: Summary;
  checks: CheckResult[];
  notes: Note[];
  counterexamples: Counterexample[];
  /** Requests sent, redirects and 429 retries not counted. */
  requests: number;
  /**
   * The concurrency and rate limit of the run, and the 429 answers it waited on; absent from the proxy's report,
   * which sends no request of its own.
   */
  pacing?: PacingReport;
  durationMs: number;
}

/** Raised for options no run could use (a bad URL, an invalid create body). */
export class ContractOptionError extends Error {}

/** `option`: how the user gave the URL, for the message. */
export function parseBaseUrl(raw: string, option = '--base-url'): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    // The raw value may carry a password: never quote its userinfo.
    throw new ContractOptionError(
      `${option} must be an absolute http(s) URL, got '${raw.replace(/\/\/[^/@]*@/, '//<USERINFO>@')}'`,
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new ContractOptionError(`${option} must be http or https, got '${url.protocol}'`);
  return url;
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
      `--rate-limit must be requests per second above 0 and up to 10000, such as 5/s or 0.5/s, got '${options.rateLimit}'`,
    );
  return { concurrency, ratePerSecond };
}

/** Headers the user gave, each one HTTP can carry; the message names the header only, as the value is a credential. */
export function checkHeaders(headers: Record<string, string>): void {
  for (const [name, value] of Object.entries(headers)) {
    try {
      validateHeaderName(name);
      validateHeaderValue(name, value);
    } catch {
      throw new ContractOptionError(`the header ${name} has a name or value HTTP cannot carry`);
    }
  }
}

export function summarize(checks: CheckResult[]): Summary {
  const count = (outcome: CheckResult['outcome']) => checks.filter((check) => check.outcome === outcome).length;
  return {
    passed: count('passed'),
    failed: count('failed'),
    warnings: checks.filter((check) => check.outcome === 'failed' && check.severity === 'warning').length,
    skipped: count('skipped'),
  };
}

function failsRun(checks: CheckResult[], strict: boolean): boolean {
  return checks.some((check) => check.outcome === 'failed' && (strict || check.severity === 'error'));
}

/**
 * 0 no error-level failure; 1 an error-level failure (with `strict`, any failure) or nothing verified at all; 2 the
 * deployment was not reachable.
 */
export function exitCode(report: Report, strict = report.strict): number {
  if (!report.reachable) return 2;
  return report.verdict === 'NOTHING VERIFIED' || failsRun(report.checks, strict) ? 1 : 0;
}

/** Success bodies checked: without one, every body check was skipped and a green run would say nothing. */
export function verifiedAnything(checks: CheckResult[]): boolean {
  return checks.some((check) => check.id.endsWith('.body.json') && check.outcome !== 'skipped');
}

/**
 * The verdict line's word, for `contract` and `proxy` alike: FAIL on a failure that fails the run (with `strict`, any
 * failure) or an unreachable target; NOTHING VERIFIED when no success body could be checked; PASS otherwise.
 */
export function verdictOf(checks: CheckResult[], reachable: boolean, strict: boolean): Verdict {
  return failsRun(checks, strict) || !reachable ? 'FAIL' : verifiedAnything(checks) ? 'PASS' : 'NOTHING VERIFIED';
}

/** The likely cause of a run that verified nothing, read off the statuses every request got. */
function nothingVerified(statuses: Map<number, number>): string {
  const seen = [...statuses.keys()].sort((a, b) => a - b);
  if (seen.length === 0) return 'nothing verified: no request got a complete answer';
  if (seen.every((status) => status === 404))
    return 'nothing verified: every request was answered 404: is the path prefix in --base-url right?';
  if (seen.every((status) => status === 401 || status === 403))
    return `nothing verified: every request was answered ${seen.join('/')}: pass credentials with --header`;
  return `nothing verified: no success answer to check (answers: ${seen.map((status) => `${status} ×${statuses.get(status)}`).join(', ')}): pass --human-evaluation-id and --create-body that exist there`;
}

/** Checks a deployment against the contract. Never throws for anything the deployment does. */
export async function runContract(options: ContractOptions): Promise<Report> {
  const started = performance.now();
  const baseUrl = parseBaseUrl(options.baseUrl);
  const seed = options.seed ?? '1';
  if (options.createBody !== undefined) {
    const nesting = excessiveNesting(options.createBody);
    if (nesting) throw new ContractOptionError(`the create body is ${nesting}`);
    const { issues } = validate('CreateEvaluationRequest', options.createBody);
    if (issues.length > 0)
      throw new ContractOptionError(
        `the create body is not a valid create request: ${issues.map(formatIssue).join(', ')}`,
      );
  }
  const verdicts = new Verdicts();
  const canaries = new Canaries(seed);
  const headers = options.headers ?? {};
  checkHeaders(headers);
  const client = {
    timeoutMs: options.timeoutMs ?? defaultClientOptions.timeoutMs,
    maxBodyBytes: options.maxBodyBytes ?? defaultClientOptions.maxBodyBytes,
    ca: options.ca,
    insecure: options.insecure,
  };
  const secrets: Secret[] = [
    ...credentialsOf(baseUrl, headers),
    ...keyValues(options.createBody).map((value) => ({ value, placeholder: secretPlaceholder })),
  ];
  const session = new Session(baseUrl, headers, client, verdicts, canaries, secrets, pacingOptions(options));
  const request = canaries.inject(
    options.createBody ?? (generators.CreateEvaluationRequest(seed, { profile: 'full' }) as Record<string, unknown>),
  );
  const probes = createProbes(request, options.readOnly ?? false);

  let reachable = true;
  let stopped: string | undefined;
  const counterexamples: Counterexample[] = [];
  try {
    // Alone and first: a deployment that is not there stops the run after one request, not after a batch of them.
    await checkFetch(
      session,
      options.humanEvaluationId ?? defaultHumanEvaluationId,
      options.humanEvaluationId !== undefined,
    );
    const knownIds = options.humanEvaluationId !== undefined ? [options.humanEvaluationId] : [];
    // The unknown ids depend on the created ids' shape: they are sent ahead once those are known (checkUnknownIds).
    const valid = options.readOnly ? [] : [createRequest(JSON.stringify(request))];
    await session.sendAhead([...valid, ...probes.map(probeRequest)]);
    if (!options.readOnly) {
      const created = await checkCreate(session, request, options.createBody !== undefined);
      knownIds.push(...created.ids);
      if (created.accepted) await checkProviderKeyNames(session, request);
      else
        verdicts.skip(
          'create.provider-keys.accepted',
          'the create request was not accepted: nothing to compare other key names with',
        );
    }
    await checkUnknownIds(session, knownIds, seed);
    await runProbes(session, probes);
    const examples = options.examples ?? 0;
    if (examples > 0 && !options.readOnly) await runProperties(session, { examples, seed }, counterexamples);
    else
      for (const id of propertyChecks)
        verdicts.skip(
          id,
          options.readOnly
            ? '--read-only: property-based create requests could create data'
            : 'not run: pass --examples N',
        );
  } catch (error) {
    if (error instanceof UnreachableError) {
      reachable = false;
      stopped = `the deployment cannot be reached: ${error.message}`;
    } else if (error instanceof RunStopped) {
      stopped = error.message;
    } else {
      throw error;
    }
  }
  if (stopped)
    for (const check of catalogue) verdicts.skip(check.id, 'not reached: the run stopped early (see stopped)');
  if (options.readOnly) {
    for (const check of catalogue.filter((candidate) => candidate.operation === 'create'))
      verdicts.skip(check.id, '--read-only: no valid create request sent');
  }
  const checks = verdicts.results();
  const strict = options.strict ?? false;
  const verdict = verdictOf(checks, reachable, strict);
  const report: Report = {
    target: publicUrl(baseUrl),
    reachable,
    verdict,
    ...(reachable && !verifiedAnything(checks) ? { headline: nothingVerified(session.statuses) } : {}),
    strict,
    insecure: options.insecure ?? false,
    ...(stopped ? { stopped } : {}),
    summary: summarize(checks),
    checks,
    notes: verdicts.notes(),
    counterexamples,
    requests: session.requests,
    pacing: session.pacing,
    durationMs: Math.round(performance.now() - started),
  };
  // The one place every report's text passes: whatever a deployment echoed, no credential leaves in clear.
  return redactReport(report, session.redactor);
}
