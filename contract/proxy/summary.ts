import { mark, painter, type TerminalStyle } from '../report/terminal.js';
import { publicTarget, summarize, type Report } from '../run.js';
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
}

export function emptyTraffic(): Traffic {
  return { forwarded: 0, checked: 0, otherPaths: 0, unreachable: 0, recorded: 0, refused: 0 };
}

/** The lines printed the moment an exchange fails a check: one per failed check, its finding for this exchange. */
export function violationLines(judgement: Judgement, style: TerminalStyle): string[] {
  const paint = painter(style);
  return judgement.failed.map((check) => `${mark(check, paint)} ${check.id}  ${check.findings[0] ?? check.message}${paint('dim', ` [${check.severity}; ${check.spec}]`)}`);
}

/** One line of what went through, for the end of the terminal report. */
export function trafficLine(traffic: Traffic, judge: ExchangeJudge): string {
  const overCap = judge.overCap.fetch + judge.overCap.create;
  const parts = [
    `forwarded ${traffic.forwarded} requests: ${traffic.checked} checked`,
    `${traffic.otherPaths} to other paths (not checked)`,
    `${overCap} over the size cap (forwarded unchecked)`,
    `${traffic.unreachable} found the target unreachable (502)`,
  ];
  return `${parts.join(', ')}; recorded ${traffic.recorded} fixtures, refused ${traffic.refused}`;
}

/**
 * The run as the contract suite reports it, so every report writer and `exitCode` read it alike. A target that no
 * request ever reached is unreachable (exit 2), as in `contract`.
 */
export function proxyReport(judge: ExchangeJudge, target: URL, traffic: Traffic, durationMs: number): Report {
  const reachable = !(traffic.unreachable > 0 && traffic.unreachable === traffic.forwarded);
  // Redaction: call site of the report-level pass.
  const checks = judge.verdicts.results().map((check) => ({ ...check, message: judge.redact(check.message), findings: check.findings.map((finding) => judge.redact(finding)) }));
  return {
    target: publicTarget(target),
    reachable,
    ...(reachable ? {} : { stopped: `the target cannot be reached: all ${traffic.unreachable} requests found nothing listening` }),
    summary: summarize(checks),
    checks,
    notes: judge.verdicts.notes().map((note) => ({ ...note, message: judge.redact(note.message) })),
    counterexamples: [],
    requests: traffic.forwarded,
    durationMs,
  };
}
