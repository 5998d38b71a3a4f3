/** The mock server of the Evaluation Service API: `evalkit mock` on the command line, these for code and tests. */
export { createMockApp } from './app.js';
export { startMockServer, type MockServer, type MockServerOptions } from './server.js';
export type { MockOptions } from './options.js';
export type { CorsOrigins } from './cors.js';
export { defaultCreatedState } from './evaluations.js';
export { scenarioKeys, parsePrefer, ScenarioError, type Scenario } from './scenarios.js';
export { scenarioCodes } from './scenario-answers.js';
export { FixtureError } from './fixtures-store.js';
export { MockSetupError } from './setup-error.js';
