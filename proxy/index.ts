import { operation, operationOfKey, type OperationId } from '../api/operations.js';
import { defaultClientOptions } from '../http/client.js';
import type { Pseudonymizer } from '../http/pseudonymizer.js';
import { checkHeaders, parseBaseUrl } from '../http/target-options.js';
import type { CoverageMinimum } from '../contract/report/coverage.js';
import type { Report } from '../contract/report/model.js';
import { startForwarding, type Passage } from './forward.js';
import { ExchangeJudge, type Judgement } from './judge.js';
import { fetchedId, operationOf } from './operations.js';
import { Recorder, RequestLog, type RecordingOutcome } from './recording.js';
import { emptyTraffic, proxyReport, type Traffic } from './summary.js';
import { defaultProxyHost, defaultProxyPort } from './defaults.js';

export { trafficLine, violationLines } from './summary.js';
export type { Judgement } from './judge.js';

/** A recording made or refused, and for which request. */
export type RecordingEvent = { label: string } & RecordingOutcome;

export interface ProxyOptions {
  /** The deployment; may carry a base path (`https://host/api`), which every request path is appended to. */
  target: string;
  /** Default 4011; 0 picks a free port. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** Set on every forwarded request (auth); never reported. */
  headers?: Record<string, string>;
  /** Record valid fetch answers as `DIR/<recordFolder>/<id>.json` (api/operations.ts). */
  recordDir?: string;
  /** Write the recordings with pseudonyms in place of personal values (http/pseudonymizer.ts). */
  pseudonymizer?: Pseudonymizer;
  timeoutMs?: number;
  /** Failed warnings fail the run too, as in `contract`. */
  strict?: boolean;
  /** The least coverage the traffic must reach, as in `contract`: under it, the report fails. */
  minCoverage?: CoverageMinimum;
  /**
   * The ids the team accepts (`--ignore FILE`), as in `contract`: a finding with one is shown as accepted, live and in
   * the report, and fails nothing; the report names the ids found and those no longer found (stale).
   */
  accepted?: ReadonlySet<string>;
  /** Told of each exchange as it is judged, and of each recording. */
  onJudgement?(judgement: Judgement): void;
  onRecording?(event: RecordingEvent): void;
}

export interface ContractProxy {
  url: string;
  /** The report of everything judged so far, in the contract suite's shape. */
  report(): Report;
  traffic(): Traffic;
  judge: ExchangeJudge;
  /** Stops listening, ends open connections and waits for recordings in progress; calling it again waits the same. */
  close(): Promise<void>;
}

/**
 * Why an answer is no fixture a mock should replay whatever it holds, or undefined: only a whole answer, as sent,
 * that decoded cleanly, is one.
 */
function incompleteness(passage: Passage): string | undefined {
  if (passage.overCap) return 'the answer is over the size cap: forwarded, not kept';
  if (passage.failure) return `the answer is not whole (${passage.failure.message})`;
  if (passage.encoding === 'invalid-utf8') return 'the body is not valid UTF-8';
  if (passage.encoding === 'bom') return 'the body starts with a byte order mark';
  return undefined;
}

/**
 * A reverse proxy in front of a deployment that forwards every request unchanged, streams every answer back, and judges
 * each exchange of the two operations with the contract suite's own checks. Throws ContractOptionError for a bad
 * target or header, and the listen error when the port cannot be had.
 */
export function startContractProxy(options: ProxyOptions): Promise<ContractProxy> {
  return startProxyWith(options, {});
}

/** What only the tests set, apart from ProxyOptions: a smaller body cap, so a test need not send 4 MiB. */
export interface ProxySeams {
  /** Bodies larger than this are forwarded unchecked (default: the contract suite's 4 MiB cap). */
  maxBodyBytes?: number;
}

/** startContractProxy, with the tests' seams. */
export async function startProxyWith(options: ProxyOptions, seams: ProxySeams): Promise<ContractProxy> {
  const started = performance.now();
  const target = parseBaseUrl(options.target, '--target');
  const headers = options.headers ?? {};
  checkHeaders(headers);
  const maxBodyBytes = seams.maxBodyBytes ?? defaultClientOptions.maxBodyBytes;
  const judge = new ExchangeJudge(target, headers, maxBodyBytes, options.accepted);
  const { recordDir, pseudonymizer } = options;
  const recorder = recordDir === undefined ? undefined : await Recorder.open(recordDir, pseudonymizer);
  const requestLog = recordDir === undefined ? undefined : await RequestLog.open(recordDir, undefined, pseudonymizer);
  const traffic = emptyTraffic();

  const told = (label: string, outcome: RecordingOutcome) => {
    if ('recorded' in outcome) traffic.recorded++;
    else traffic.refused++;
    options.onRecording?.({ label, ...outcome });
  };

  const record = (passage: Passage, judgement: Judgement, operation: OperationId, id: string) => {
    if (!recorder || judgement.status !== 200) return;
    const incomplete = incompleteness(passage);
    if (incomplete !== undefined) return told(judgement.label, { refused: incomplete });
    const secretIn = (text: string) => judge.redactor.find(text);
    void recorder.offer(operation, id, passage.body, secretIn).then((outcome) => told(judgement.label, outcome));
  };

  const passed = (passage: Passage) => {
    judge.watchCredentials(passage);
    traffic.forwarded++;
    if (passage.unreachable) traffic.unreachable++;
    const route = operationOf(passage.method, passage.path);
    if (passage.cutByShutdown) {
      traffic.cutByShutdown[route?.operation ?? 'other']++;
      return;
    }
    if (!route) {
      traffic.otherPaths++;
      return;
    }
    const judgement = judge.judge(passage, route);
    // After judging: the provider keys of this very request are known to the redactor by then.
    void requestLog
      ?.keep(passage, (text) => judge.redact(text))
      .then(
        (problem) => problem && options.onRecording?.({ label: `${passage.method} ${passage.path}`, refused: problem }),
      );
    if (!judgement) return;
    traffic.checked++;
    options.onJudgement?.(judgement);
    const answered = operationOfKey(route.operation);
    const id = operation(answered).recordFolder ? fetchedId(route) : undefined;
    if (id !== undefined) record(passage, judgement, answered, id);
  };

  const forwarder = await startForwarding({
    target,
    headers,
    timeoutMs: options.timeoutMs ?? defaultClientOptions.timeoutMs,
    maxBodyBytes,
    inspect: (method, path) => operationOf(method, path) !== undefined,
    passed,
    port: options.port ?? defaultProxyPort,
    host: options.host ?? defaultProxyHost,
  });
  let closing: Promise<void> | undefined;
  return {
    url: forwarder.url,
    judge,
    traffic: () => ({ ...traffic }),
    report: () =>
      proxyReport(
        judge,
        target,
        traffic,
        Math.round(performance.now() - started),
        options.strict ?? false,
        options.minCoverage,
      ),
    close: () =>
      (closing ??= (async () => {
        await forwarder.close();
        await recorder?.settled();
        await requestLog?.close();
      })()),
  };
}
