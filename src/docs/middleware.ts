/**
 * What the middleware around a route adds to its operation: responses, header parameters,
 * security requirements and security schemes, read from `describeMiddleware`.
 * @module
 */
import type { DocsSecurityScheme } from '../config/index.js';
import {
  type DocumentedHeader,
  type DocumentedRequestHeader,
  type DocumentedResponse,
  middlewareDocsOf,
} from '../routing/middleware-docs.js';
import { chainOf, type RouteEntry } from '../routing/table.js';
import type { HttpMethod, Middleware, SecurityRequirement } from '../routing/types.js';
import type { ParameterObject } from './types.js';

/** What the middleware of one route declares, merged. */
export interface MiddlewareContribution {
  /** Responses by status; an inner middleware's replaces an outer one's for the same status. */
  readonly responses: Map<number, DocumentedResponse>;
  /** The problem codes of each status, merged over every middleware; null when one is unknown. */
  readonly codes: Map<number, ReadonlySet<string> | null>;
  /** One list of alternatives per middleware that declares security: all of them must hold. */
  readonly security: (readonly SecurityRequirement[])[];
  /** Headers some middleware sets on every answer, by name. */
  readonly headers: Record<string, DocumentedHeader>;
  /** Request headers by name; an inner middleware's replaces an outer one's. */
  readonly requestHeaders: Map<string, DocumentedRequestHeader>;
}

/** Every middleware that runs around `entry`, outermost first. */
export function middlewareAround(
  entry: RouteEntry,
  appMiddleware: readonly Middleware[],
): Middleware[] {
  return chainOf(entry, appMiddleware);
}

/** Merges the docs of `middleware` for an operation of `method` (skipping docs of other methods). */
export function contributionOf(
  middleware: readonly Middleware[],
  method: HttpMethod,
): MiddlewareContribution {
  const responses = new Map<number, DocumentedResponse>();
  const codes = new Map<number, ReadonlySet<string> | null>();
  const security: (readonly SecurityRequirement[])[] = [];
  const headers: Record<string, DocumentedHeader> = {};
  const requestHeaders = new Map<string, DocumentedRequestHeader>();
  for (const mw of middleware) {
    const docs = middlewareDocsOf(mw);
    if (!docs || (docs.methods && !docs.methods.includes(method))) continue;
    Object.assign(headers, docs.headers);
    for (const [key, r] of Object.entries(docs.responses ?? {})) {
      const status = Number(key);
      responses.set(status, r);
      // An outer middleware can still answer what an inner one's response replaces.
      const had = codes.get(status);
      const known = Array.isArray(r.codes) ? new Set(r.codes) : null;
      codes.set(
        status,
        had === undefined ? known : had && known ? new Set([...had, ...known]) : null,
      );
    }
    if (docs.security?.length) security.push(docs.security);
    for (const [name, h] of Object.entries(docs.requestHeaders ?? {})) {
      // Header names are case-insensitive: an inner middleware's replaces an outer one's.
      for (const known of requestHeaders.keys()) {
        if (known.toLowerCase() === name.toLowerCase()) requestHeaders.delete(known);
      }
      requestHeaders.set(name, h);
    }
  }
  return { responses, codes, security, headers, requestHeaders };
}

/**
 * Adds the request headers middleware reads to an operation's parameters, after the route's
 * own; a header the route's schema already declares keeps the route's description.
 */
export function addHeaderParameters(
  parameters: ParameterObject[],
  headers: ReadonlyMap<string, DocumentedRequestHeader>,
): void {
  for (const [name, h] of headers) {
    const lower = name.toLowerCase();
    if (parameters.some((p) => p.in === 'header' && p.name.toLowerCase() === lower)) continue;
    const p: ParameterObject = { name, in: 'header', required: h.required ?? false, schema: {} };
    if (h.description) p.description = h.description;
    p.schema = { ...(h.schema ?? { type: 'string' }) };
    parameters.push(p);
  }
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
