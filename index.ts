/**
 * evalkit as a library: the schemas and everything derived from them, the mock app and the contract runner.
 * `evalkit/mock` and `evalkit/contract` export the rest of those two.
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
export { validate, validatorFor, formatIssue, isDocumentedEvaluatorConfig, type ValidationIssue, type ValidationResult } from './schemas/validators/index.js';
export { isRfc3339DateTime } from './schemas/validators/date-time.js';
export {
  generators,
  createGenerators,
  generateBatch,
  batchSeed,
  seedFrom,
  profiles,
  isProfile,
  type Generators,
  type GenerateOptions,
  type Instances,
  type Profile,
  type ResourceGenerator,
  type Seed,
} from './fixtures/generators/index.js';
export { invalidCases, type InvalidCase } from './fixtures/generators/invalid.js';
export { evaluationStates, failedStates, type EvaluationState } from './fixtures/generators/vocabulary.js';
export { evaluationsForRequest, createEvaluationsForRequest, type CreateRequestIds, type EvaluationsForRequest } from './fixtures/generators/index.js';
export { openApiDocument, renderOpenApi } from './schemas/openapi/document.js';
export { createMockApp, startMockServer, type MockOptions, type MockServer } from './mock/index.js';
export { runContract, exitCode, type ContractOptions, type Report } from './contract/index.js';
export type * from './schemas/types/resources.js';
