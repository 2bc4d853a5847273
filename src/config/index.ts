/**
 * KConfig: what a service author passes to `new App(…)`, its defaults and its checks.
 * @module
 */

export { ConfigError, type ConfigIssue } from './config-error.js';
export { DEFAULTS } from './defaults.js';
export { type LoadConfigOptions, loadConfig } from './load.js';
export { resolveConfig } from './resolve.js';
export type {
  ApiKeyScheme,
  BasicScheme,
  BearerScheme,
  DocsSecurityScheme,
  OAuth2Scheme,
  OAuthFlow,
  OAuthFlows,
} from './security.js';
export type {
  DocsConfig,
  DocsContact,
  DocsLicense,
  DocsTag,
  Env,
  EnvSource,
  HealthConfig,
  KConfig,
  ResolvedConfig,
  ResolvedDocsConfig,
  ResolvedDocsServer,
} from './types.js';
