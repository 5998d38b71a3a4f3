import { validateHeaderName, validateHeaderValue } from 'node:http';
import { generators } from '../fixtures/generators/index.js';
import { formatIssue, validate } from '../schemas/validators/index.js';
import { catalogue } from './catalogue.js';
import { checkCreate, createRequest } from './checks/create.js';
import { checkFetch, checkUnknownId, defaultHumanEvaluationId, fetchRequest } from './checks/fetch.js';
import { defaultClientOptions } from './http-client.js';
import { defaultConcurrency, maxConcurrency, parseRate, type PacingOptions } from './pacing.js';
import { createProbes, probeRequest, runProbes } from './probes.js';
import { propertyChecks, runProperties, type Counterexample } from './properties.js';
import { Canaries } from './secrets.js';
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
}

export interface Summary {
  passed: number;
  failed: number;
  /** Failed warning-level checks (also counted in `failed`). */
  warnings: number;
  skipped: number;
}

export interface Report {
  /** The base URL without credentials. */
  target: string;
  reachable: boolean;
  /** Why the run ended early, when it did. */
  stopped?: string;
  summary: Summary;
  checks: CheckResult[];
  notes: Note[];
  counterexamples: Counterexample[];
  /** Requests sent, redirects and 429 retries not counted. */
  requests: number;
  /** The concurrency and rate limit of the run, and the 429 answers it waited on. */
  /** How the run paced its requests; absent from the proxy's report, which sends none of its own. */
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
    throw new ContractOptionError(`${option} must be an absolute http(s) URL, got '${raw}'`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ContractOptionError(`${option} must be http or https, got '${url.protocol}'`);
  return url;
}

function pacingOptions(options: ContractOptions): PacingOptions {
  const concurrency = options.concurrency ?? defaultConcurrency;
  if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > maxConcurrency) {
    throw new ContractOptionError(`--concurrency must be an integer from 1 to ${maxConcurrency}, got '${concurrency}'`);
  }
  if (options.rateLimit === undefined) return { concurrency };
  const ratePerSecond = parseRate(String(options.rateLimit));
  if (ratePerSecond === undefined) throw new ContractOptionError(`--rate-limit must be requests per second above 0 and up to 10000, such as 5/s or 0.5/s, got '${options.rateLimit}'`);
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

export function publicTarget(url: URL): string {
  const shown = new URL(url);
  shown.username = '';
  shown.password = '';
  return shown.toString();
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

/** 0 no error-level failure; 1 an error-level failure (with `strict`, any failure); 2 the deployment was not reachable. */
export function exitCode(report: Report, strict = false): number {
  if (!report.reachable) return 2;
  const failed = report.checks.filter((check) => check.outcome === 'failed' && (strict || check.severity === 'error'));
  return failed.length > 0 ? 1 : 0;
}

/** Checks a deployment against the contract. Never throws for anything the deployment does. */
export async function runContract(options: ContractOptions): Promise<Report> {
  const started = performance.now();
  const baseUrl = parseBaseUrl(options.baseUrl);
  const seed = options.seed ?? '1';
  if (options.createBody !== undefined) {
    const { issues } = validate('CreateEvaluationRequest', options.createBody);
    if (issues.length > 0) throw new ContractOptionError(`the create body is not a valid create request: ${issues.map(formatIssue).join(', ')}`);
  }
  const verdicts = new Verdicts();
  const canaries = new Canaries(seed);
  const headers = options.headers ?? {};
  checkHeaders(headers);
  const client = { timeoutMs: options.timeoutMs ?? defaultClientOptions.timeoutMs, maxBodyBytes: options.maxBodyBytes ?? defaultClientOptions.maxBodyBytes };
  const session = new Session(baseUrl, headers, client, verdicts, canaries, pacingOptions(options));
  const request = canaries.inject(options.createBody ?? (generators.CreateEvaluationRequest(seed, { profile: 'full' }) as Record<string, unknown>));
  const unknownId = generators.HumanEvaluation(`unknown:${seed}`).id;
  const probes = createProbes(request, options.readOnly ?? false);

  let reachable = true;
  let stopped: string | undefined;
  const counterexamples: Counterexample[] = [];
  try {
    // Alone and first: a deployment that is not there stops the run after one request, not after a batch of them.
    await checkFetch(session, options.humanEvaluationId ?? defaultHumanEvaluationId, options.humanEvaluationId !== undefined);
    const valid = options.readOnly ? [] : [createRequest(JSON.stringify(request))];
    await session.sendAhead([fetchRequest(unknownId), ...valid, ...probes.map(probeRequest)]);
    await checkUnknownId(session, unknownId);
    if (!options.readOnly) await checkCreate(session, request, options.createBody !== undefined);
    await runProbes(session, probes);
    const examples = options.examples ?? 0;
    if (examples > 0 && !options.readOnly) await runProperties(session, { examples, seed }, counterexamples);
    else for (const id of propertyChecks) verdicts.skip(id, options.readOnly ? '--read-only: property-based create requests could create data' : 'not run: pass --examples N');
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
  if (stopped) for (const check of catalogue) verdicts.skip(check.id, 'not reached: the run stopped early (see stopped)');
  if (options.readOnly) {
    for (const check of catalogue.filter((candidate) => candidate.operation === 'create')) verdicts.skip(check.id, '--read-only: no valid create request sent');
  }
  const checks = verdicts.results().map((check) => ({ ...check, message: session.redact(check.message), findings: check.findings.map((finding) => session.redact(finding)) }));
  return {
    target: publicTarget(baseUrl),
    reachable,
    ...(stopped ? { stopped } : {}),
    summary: summarize(checks),
    checks,
    notes: verdicts.notes().map((note) => ({ ...note, message: session.redact(note.message) })),
    counterexamples,
    requests: session.requests,
    pacing: session.pacing,
    durationMs: Math.round(performance.now() - started),
  };
}
