import type { Report } from '../run.js';

/** The one-word answer a person looks for first, and the counts behind it. */
export interface Verdict {
  word: 'PASS' | 'FAIL' | 'NOTHING VERIFIED';
  errors: number;
  warnings: number;
}

/**
 * FAIL on any error-level failure; NOTHING VERIFIED when the target was not reached or no check was evaluated (a
 * proxy that saw no traffic); PASS otherwise, warnings or not. The same rule as the exit code, without --strict.
 */
export function verdictOf(report: Report): Verdict {
  const { passed, failed, warnings } = report.summary;
  const errors = failed - warnings;
  if (errors > 0) return { word: 'FAIL', errors, warnings };
  if (!report.reachable || passed + failed === 0) return { word: 'NOTHING VERIFIED', errors, warnings };
  return { word: 'PASS', errors, warnings };
}
