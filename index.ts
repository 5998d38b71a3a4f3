/**
 * evalkit as a library: the schemas and everything derived from them, the mock app and the contract runner.
 * `evalkit/mock` and `evalkit/contract` export the rest of those two; `evalkit/msw` the MSW handlers (msw is an
 * optional peer).
 */
export {
  schemas,
  schemaFiles,
  resourceNames,
  isResourceName,
  errorBodySchemas,
  errorBodyNames,
  declaredProperties,
  requiredProperties,
  bundledSchema,
  type JsonSchema,
  type ResourceName,
  type ErrorBodyName,
  type SchemaName,
} from './schemas/index.js';
export {
  validate,
  validatorFor,
  formatIssue,
  isDocumentedEvaluatorConfig,
  type ValidationIssue,
  type ValidationResult,
} from './schemas/validators/index.js';
export { isRfc3339DateTime } from './schemas/validators/date-time.js';
export {
  generators,
  createGenerators,
  generateBatch,
  batchSeed,
  seedFrom,
  profiles,
  isProfile,
  evaluationsForRequest,
  createEvaluationsForRequest,
  type CreateRequestIds,
  type EvaluationsForRequest,
  type Generators,
  type GenerateOptions,
  type Instances,
  type Profile,
  type ResourceGenerator,
  type Seed,
} from './generators/index.js';
export { invalidCases, type InvalidCase } from './generators/invalid.js';
export { evaluationStates, failedStates, type EvaluationState } from './generators/vocabulary.js';
export { openApiDocument, renderOpenApi } from './api/openapi.js';
export {
  createMockApp,
  startMockServer,
  createMockCore,
  handleFetch,
  type MockOptions,
  type MockServer,
  type MockCore,
  type MockCoreOptions,
} from './mock/index.js';
export { build, buildMany, FactoryError, type BuildOptions, type DeepPartial } from './generators/factories.js';
export { runContract, exitCode, type ContractOptions, type Report } from './contract/index.js';
export type * from './schemas/types/resources.js';
export type { components, operations, paths } from './api/paths.js';
