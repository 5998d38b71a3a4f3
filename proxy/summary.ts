import { mark, painter, type TerminalStyle } from '../contract/report/terminal.js';
import { operationIds, operationKeys, operationLabel, perOperation, type OperationKey } from '../api/operations.js';
import type { Note } from '../contract/judge/verdicts.js';
import { escapeControlCharacters as shown, publicUrl } from '../http/redaction.js';
import type { CoverageMinimum } from '../contract/report/coverage.js';
import { buildReport, type Report } from '../contract/report/model.js';
import type { ExchangeJudge, Judgement } from './judge.js';

/** What passed through the proxy, counted. */
export interface Traffic {
  forwarded: number;
  /** Exchanges of the two operations, judged by the contract's checks. */
  checked: number;
  /** Requests for any other path or method: forwarded, not judged. */
  otherPaths: number;
  /** Requests that found nothing listening at the target (answered 502 by the proxy). */
  unreachable: number;
  recorded: number;
  refused: number;
  /** Exchanges still open when the proxy stopped, by operation: cut by the shutdown, not judged. */
  cutByShutdown: Record<OperationKey | 'other', number>;
}

export function emptyTraffic(): Traffic {
  return {
    forwarded: 0,
    checked: 0,
    otherPaths: 0,
    unreachable: 0,
    recorded: 0,
    refused: 0,
    cutByShutdown: { ...perOperation(0), other: 0 },
  };
}

function cutCount(traffic: Traffic): number {
  return Object.values(traffic.cutByShutdown).reduce((sum, count) => sum + count, 0);
}

/**
 * The lines printed the moment an exchange fails a check: one per failed check, its finding for this exchange and the
 * finding's id (what an --ignore file lists); a finding the file accepts is marked so.
 */
export function violationLines(judgement: Judgement, style: TerminalStyle): string[] {
  const paint = painter(style);
  return judgement.failed.map((check) => {
    const [first] = check.views ?? [];
    const id = first?.id ? ` [id ${first.id}${first.accepted ? ', accepted' : ''}]` : '';
    return (
      `${mark(check, paint)} ${check.id}  ${shown(check.findings[0] ?? check.message)}` +
      paint('dim', ` [${check.severity}; ${check.spec}]${id}`)
    );
  });
}

/** One line of what went through, for the end of the terminal report. */
export function trafficLine(traffic: Traffic, judge: ExchangeJudge): string {
  const overCap = operationKeys.reduce((sum, operation) => sum + judge.overCap[operation], 0);
  const parts = [
    `forwarded ${traffic.forwarded} requests: ${traffic.checked} checked`,
    `${traffic.otherPaths} to other paths (not checked)`,
    `${overCap} over the size cap (forwarded unchecked)`,
    `${traffic.unreachable} found the target unreachable (502)`,
    `${cutCount(traffic)} cut by the shutdown`,
  ];
  return `${parts.join(', ')}; recorded ${traffic.recorded} fixtures, refused ${traffic.refused}`;
}

/** One note per operation with exchanges the shutdown cut: they were neither answered whole nor judged. */
function shutdownNotes(traffic: Traffic): Note[] {
  return operationKeys
    .filter((operation) => traffic.cutByShutdown[operation] > 0)
    .map((operation) => ({
      operation,
      message: `${traffic.cutByShutdown[operation]} exchanges open when the proxy stopped: cut, not judged`,
    }));
}

/** Why the proxy verified nothing: no traffic of the two operations, or no success answer among it. */
function nothingVerified(traffic: Traffic): string {
  if (traffic.checked === 0) {
    const operations = operationIds.map(operationLabel).join(', ');
    return (
      `nothing verified: no request of the two operations (${operations}) came through the proxy ` +
      `(forwarded ${traffic.forwarded})`
    );
  }
  return `nothing verified: none of the ${traffic.checked} exchanges checked had a success answer to check`;
}

/**
 * The run as the contract suite reports it, so every report writer and `exitCode` read it alike, with the same
 * verdict rule: a proxy that saw no traffic verified nothing. A target that no request ever reached is unreachable
 * (exit 2), as in `contract`.
 */
export function proxyReport(
  judge: ExchangeJudge,
  target: URL,
  traffic: Traffic,
  durationMs: number,
  strict = false,
  minimumCoverage?: CoverageMinimum,
): Report {
  const reachable = !(traffic.unreachable > 0 && traffic.unreachable === traffic.forwarded);
  return buildReport({
    command: 'proxy',
    target: publicUrl(target),
    reachable,
    strict,
    // The proxy forwards with its own client: it never skips certificate verification.
    insecure: false,
    ...(reachable
      ? {}
      : { stopped: `the target cannot be reached: all ${traffic.unreachable} requests found nothing listening` }),
    checks: judge.verdicts.results(judge.accepted),
    ...(judge.accepted ? { accepted: judge.accepted } : {}),
    notes: [...judge.verdicts.notes(), ...shutdownNotes(traffic)],
    counterexamples: [],
    requests: traffic.forwarded,
    coverage: judge.coverage.report(),
    ...(minimumCoverage ? { minimumCoverage } : {}),
    durationMs,
    nothingVerified: () => nothingVerified(traffic),
    redactor: judge.redactor,
  });
}
