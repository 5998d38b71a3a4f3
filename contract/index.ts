export { runContract, exitCode, ContractOptionError, type ContractOptions, type Report, type Summary, type Verdict } from './run.js';
export { redactReport, escapeControlCharacters, publicUrl } from './redaction.js';
export { catalogue, operations, type CheckDefinition, type Severity } from './catalogue.js';
export type { CheckResult, Note, Outcome } from './verdicts.js';
export type { Counterexample } from './properties.js';
export { defaultHumanEvaluationId } from './checks/fetch.js';
export { jsonReport } from './report/json.js';
export { junitReport } from './report/junit.js';
export { terminalReport, terminalStyle } from './report/terminal.js';
