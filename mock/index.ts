/** The mock server of the Evaluation Service API: `evalkit mock` on the command line, these for code and tests. */
export { closeMockApp, createMockApp, type MockOptions } from './node/app.js';
export { startMockServer, type MockServer, type MockServerOptions } from './node/server.js';
export { createMockCore, type MockCore } from './core/handle.js';
export { handleFetch } from './fetch/fetch.js';
export type { MockAnswer, MockRequest, RequestHeaders, BodySource } from './core/request-answer.js';
export type { MockCoreOptions } from './core/options.js';
export type { AnsweredRequest, AnswerObserver } from './core/observe.js';
export type { CorsOrigins } from './core/cors.js';
export { defaultCreatedState } from './core/create-evaluations.js';
export { scenarioKeys, parsePrefer, ScenarioError, type Scenario } from './core/scenarios.js';
export { scenarioCodes } from './core/scenario-answers.js';
export { FixtureError } from './core/fixture-set.js';
export { MockSetupError } from './core/setup-error.js';
