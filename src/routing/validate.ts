import type { StandardSchemaV1 } from '@standard-schema/spec';
import { unprocessable, type ValidationIssue } from '../errors/index.js';
import { isStandardSchema, issuePath } from '../standard-schema.js';
import type { Context } from './context.js';
import { headerShape, type Prepare, queryShape } from './request-shape.js';
import type { Responses, RouteOptions, Schema } from './types.js';

/** Where a validated value came from; the first segment of each issue's path. */
export type Source = 'params' | 'query' | 'headers' | 'cookies' | 'body';

/** One part of the request a route validates. */
export interface Part {
  readonly source: Source;
  readonly schema: Schema;
  /** Reshapes the raw value first (lone query values, mixed-case header names), when needed. */
  readonly prepare: Prepare | undefined;
}

const SOURCES: readonly Source[] = ['params', 'query', 'headers', 'cookies', 'body'];

/** The parts a route's options ask to validate, worked out once at registration. */
export function partsOf(
  options: RouteOptions<
    Schema | undefined,
    Schema | undefined,
    Schema | undefined,
    Schema | undefined,
    Responses,
    Schema | undefined
  >,
): Part[] {
  const parts: Part[] = [];
  for (const source of SOURCES) {
    const schema = options[source];
    if (schema === undefined) continue;
    if (!isStandardSchema(schema)) {
      throw new TypeError(
        `the ${source} schema is not a Standard Schema value (Zod 4, Valibot, ArkType …)`,
      );
    }
    const prepare =
      source === 'query'
        ? queryShape(schema)
        : source === 'headers'
          ? headerShape(schema)
          : undefined;
    parts.push({ source, schema, prepare });
  }
  return parts;
}

/**
 * Validates every part into the context (`c.params`, `c.query`, …) and throws one 422 KError
 * listing the issues of all parts when any fails. Synchronous (returns undefined) while every
 * schema validates synchronously, as Zod's do; a promise once one answers asynchronously.
 */
export function validateInto(c: Context, parts: readonly Part[]): Promise<void> | undefined {
  let issues: ValidationIssue[] | undefined;
  for (let i = 0; i < parts.length; i++) {
    const { source, schema, prepare } = parts[i]!;
    const result = schema['~standard'].validate(prepare ? prepare(c[source]) : c[source]);
    if (result instanceof Promise) return validateRest(c, parts, i, result, issues);
    issues = apply(c, source, result, issues);
  }
  if (issues) throw unprocessable('The request did not pass validation.', issues);
  return undefined;
}

async function validateRest(
  c: Context,
  parts: readonly Part[],
  from: number,
  first: Promise<StandardSchemaV1.Result<unknown>>,
  found: ValidationIssue[] | undefined,
): Promise<void> {
  let issues = apply(c, parts[from]!.source, await first, found);
  for (let i = from + 1; i < parts.length; i++) {
    const { source, schema, prepare } = parts[i]!;
    const input = prepare ? prepare(c[source]) : c[source];
    issues = apply(c, source, await schema['~standard'].validate(input), issues);
  }
  if (issues) throw unprocessable('The request did not pass validation.', issues);
}

// Puts a valid value into the context, or adds its issues to `issues`.
function apply(
  c: Context,
  source: Source,
  result: StandardSchemaV1.Result<unknown>,
  issues: ValidationIssue[] | undefined,
): ValidationIssue[] | undefined {
  if (!result.issues) {
    c[source] = result.value as never;
    return issues;
  }
  const all = issues ?? [];
  for (const issue of result.issues) all.push(toIssue(source, issue));
  return all;
}

function toIssue(source: Source, issue: StandardSchemaV1.Issue): ValidationIssue {
  return { path: issuePath(issue, source), message: issue.message };
}
