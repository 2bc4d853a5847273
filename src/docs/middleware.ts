/**
 * What the middleware around a route adds to its operation: responses, security requirements
 * and security schemes, read from `describeMiddleware`.
 * @module
 */
import type { DocsSecurityScheme } from '../config/index.js';
import {
  type DocumentedHeader,
  type DocumentedResponse,
  middlewareDocsOf,
} from '../routing/middleware-docs.js';
import { middlewareOf, type RouteEntry } from '../routing/table.js';
import type { Middleware, SecurityRequirement } from '../routing/types.js';

/** What the middleware of one route declares, merged. */
export interface MiddlewareContribution {
  /** Responses by status; an inner middleware's replaces an outer one's for the same status. */
  readonly responses: Map<number, DocumentedResponse>;
  /** One list of alternatives per middleware that declares security: all of them must hold. */
  readonly security: (readonly SecurityRequirement[])[];
  /** Headers some middleware sets on every answer, by name. */
  readonly headers: Record<string, DocumentedHeader>;
}

/** Every middleware that runs around `entry`, outermost first. */
export function middlewareAround(
  entry: RouteEntry,
  appMiddleware: readonly Middleware[],
): Middleware[] {
  return [
    ...(entry.builtin ? [] : appMiddleware),
    ...middlewareOf(entry.scope),
    ...(entry.def.options.middleware ?? []),
  ];
}

/** Merges the docs of `middleware`. */
export function contributionOf(middleware: readonly Middleware[]): MiddlewareContribution {
  const responses = new Map<number, DocumentedResponse>();
  const security: (readonly SecurityRequirement[])[] = [];
  const headers: Record<string, DocumentedHeader> = {};
  for (const mw of middleware) {
    const docs = middlewareDocsOf(mw);
    if (!docs) continue;
    Object.assign(headers, docs.headers);
    for (const [status, r] of Object.entries(docs.responses ?? {}))
      responses.set(Number(status), r);
    if (docs.security?.length) security.push(docs.security);
  }
  return { responses, security, headers };
}

/** A name for a middleware in messages. */
function nameOf(mw: Middleware): string {
  return `middleware ${mw.name ? `"${mw.name}"` : '(anonymous)'}`;
}

/** A scheme in a few words, so two middleware of one name can be told apart. */
function summary(scheme: DocsSecurityScheme): string {
  switch (scheme.type) {
    case 'apiKey':
      return `apiKey in ${scheme.in} "${scheme.name}"`;
    case 'http':
      return `http ${scheme.scheme}`;
    default:
      return scheme.type;
  }
}

/** Stable JSON, keys sorted, to compare two schemes. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (typeof value !== 'object' || value === null) return JSON.stringify(value);
  const entries = Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
}

/**
 * The security schemes of the document: `docs.securitySchemes`, then every scheme a middleware
 * declares. Throws, naming both, when one name is given two different schemes.
 */
export function mergeSecuritySchemes(
  configured: Readonly<Record<string, DocsSecurityScheme>> | undefined,
  middleware: Iterable<Middleware>,
): Record<string, DocsSecurityScheme> {
  const out: Record<string, DocsSecurityScheme> = { ...configured };
  const owner = new Map<string, string>(
    Object.keys(out).map((name) => [name, 'docs.securitySchemes']),
  );
  for (const mw of middleware) {
    for (const [name, scheme] of Object.entries(middlewareDocsOf(mw)?.securitySchemes ?? {})) {
      const existing = out[name];
      if (existing && canonical(existing) !== canonical(scheme)) {
        throw new Error(
          `the security scheme "${name}" is declared differently by ${owner.get(name)} (${summary(existing)}) and by ${nameOf(mw)} (${summary(scheme)}); give one of them another name: the securityScheme option of a guard (apiKey({ securityScheme })), or its key in describeMiddleware or docs.securitySchemes`,
        );
      }
      out[name] = scheme;
      if (!owner.has(name)) owner.set(name, nameOf(mw));
    }
  }
  return out;
}

/** All of several lists of alternatives: every combination of one alternative from each. */
export function allOf(
  lists: readonly (readonly SecurityRequirement[])[],
): SecurityRequirement[] | undefined {
  if (lists.length === 0) return undefined;
  let out: SecurityRequirement[] = [{}];
  for (const list of lists) {
    const next: SecurityRequirement[] = [];
    for (const a of out) {
      for (const b of list) {
        const merged: SecurityRequirement = { ...a };
        for (const [name, scopes] of Object.entries(b)) {
          merged[name] = [...new Set([...(merged[name] ?? []), ...scopes])];
        }
        next.push(merged);
      }
    }
    out = next;
  }
  return out;
}
