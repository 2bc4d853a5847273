/**
 * keelson/testing: prove that a service answers what its OpenAPI document says, run
 * fetch-based code against it without a port, and catch breaking changes to its document.
 * @module
 */

export {
  breakingChanges,
  type ChangeCode,
  type DiffOpenApiOptions,
  diffOpenApi,
  type OpenApiChange,
} from '../openapi-diff/index.js';
export { type TestDatabaseOptions, testDatabase } from './database.js';
export { type InjectTarget, injectFetch } from './inject-fetch.js';
export {
  type ContractCoverage,
  type ContractReport,
  type ContractSetup,
  type ContractSubject,
  type ContractViolation,
  type OperationCoverage,
  type VerifyContractOptions,
  verifyContract,
} from './verify.js';
