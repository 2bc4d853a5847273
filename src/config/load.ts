/**
 * loadConfig: a service's own settings from the environment and a `.env` file, validated.
 * @module
 */
import { readFileSync } from 'node:fs';
import { parseEnv } from 'node:util';
import type { StandardSchemaV1 } from '@standard-schema/spec';
import { issuePath } from '../standard-schema.js';
import { ConfigError, type ConfigIssue } from './config-error.js';

/** Where `loadConfig` reads from. */
export interface LoadConfigOptions {
  /** The environment; it wins over the file. @default process.env */
  env?: Readonly<Record<string, string | undefined>>;
  /** A dotenv file read when it exists; `false` reads none. @default '.env' */
  envFile?: string | false;
}

/**
 * Reads `envFile` when it exists (Node's `util.parseEnv`), lays the environment over it,
 * validates the result with `schema` (a zod object: `z.coerce` for numbers, `.default()` for
 * defaults) and returns the typed config. Throws a `ConfigError` that lists every missing or
 * invalid variable with the reason, never the value.
 * @example
 * const config = loadConfig(z.object({ PORT: z.coerce.number().default(3000), JWT_SECRET: z.string().min(32) }));
 */
export function loadConfig<S extends StandardSchemaV1<Record<string, unknown>>>(
  schema: S,
  { env = process.env, envFile = '.env' }: LoadConfigOptions = {},
): StandardSchemaV1.InferOutput<S> {
  if (!schema || typeof schema['~standard']?.validate !== 'function') {
    throw new TypeError('loadConfig takes a schema such as z.object({ … })');
  }
  const vars: Record<string, string | undefined> = { ...readEnvFile(envFile) };
  for (const [name, value] of Object.entries(env)) if (value !== undefined) vars[name] = value;
  const result = schema['~standard'].validate(vars);
  if (result instanceof Promise) {
    throw new TypeError('loadConfig needs a synchronous schema (no async refinements)');
  }
  if (result.issues) throw new ConfigError(issuesOf(result.issues, vars));
  return result.value;
}

function readEnvFile(file: string | false): Record<string, string> {
  if (file === false) return {};
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw err;
  }
  return parseEnv(text) as Record<string, string>;
}

function issuesOf(
  issues: readonly StandardSchemaV1.Issue[],
  vars: Readonly<Record<string, string | undefined>>,
): ConfigIssue[] {
  return issues.map((issue) => {
    const variable = pathOf(issue);
    if (variable === undefined) return { variable: '(config)', reason: issue.message };
    // The schema library's own message for an absent variable reads "expected string, received undefined".

    return { variable, reason: vars[variable] === undefined ? 'is missing' : issue.message };
  });
}

function pathOf(issue: StandardSchemaV1.Issue): string | undefined {
  if (!issue.path?.length) return undefined;
  return issuePath(issue);
}
