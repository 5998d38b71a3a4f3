export {
  runContract,
  exitCode,
  verdictOf,
  ContractOptionError,
  type ContractOptions,
  type Report,
  type Summary,
  type Verdict,
} from './run.js';
export { redactReport, escapeControlCharacters, publicUrl } from './redaction.js';
export { catalogue, operations, type CheckDefinition, type Severity } from './catalogue.js';
export type { CheckResult, Note, Outcome } from './verdicts.js';
export type { Counterexample } from './properties.js';
export { defaultHumanEvaluationId } from './checks/fetch.js';
export { defaultConcurrency, maxConcurrency } from './pacing.js';
export type { PacingReport } from './session.js';
export type { RateLimitedCounts } from './retry-after.js';
export { jsonReport } from './report/json.js';
export { junitReport } from './report/junit.js';
export { terminalReport, terminalStyle } from './report/terminal.js';
export { htmlReport } from './report/html.js';
export { githubAnnotations, githubStepSummary } from './report/github.js';
export { startContractProxy, type ContractProxy, type ProxyOptions } from '../proxy/index.js';
