/**
 * Applies the defaults to KConfig.docs and checks it.
 * @module
 */

import { check, isHttpUrl, isObject, optionalString, parseServer } from './checks.js';
import { DEFAULTS } from './defaults.js';
import { resolveSecuritySchemes } from './security.js';
import type {
  DocsContact,
  DocsLicense,
  DocsTag,
  Env,
  ResolvedDocsConfig,
  ResolvedDocsServer,
} from './types.js';

/** `/docs`, `/api/docs`: one or more `/segment`s of non-space characters other than `?`, `#`. */
const DOCS_PATH = /^(\/[^/\s?#]+)+$/;

/** A pragmatic email check: something@something.tld, no spaces. */
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

function resolveContact(value: unknown): DocsContact {
  check(isObject(value), 'docs.contact', 'an object', value);
  const c = value as Record<string, unknown>;
  const out: DocsContact = {};
  const name = optionalString(c.name, 'docs.contact.name');
  if (name !== undefined) out.name = name;
  const url = optionalString(c.url, 'docs.contact.url');
  if (url !== undefined) {
    check(isHttpUrl(url), 'docs.contact.url', 'an absolute http(s) URL', url);
    out.url = url;
  }
  const email = optionalString(c.email, 'docs.contact.email');
  if (email !== undefined) {
    check(EMAIL.test(email), 'docs.contact.email', 'an email address like "a@b.co"', email);
    out.email = email;
  }
  return out;
}

function resolveLicense(value: unknown): DocsLicense {
  check(isObject(value), 'docs.license', 'an object with a name', value);
  const l = value as Record<string, unknown>;
  const name = l.name;
  check(
    typeof name === 'string' && name.trim() !== '',
    'docs.license.name',
    'a non-empty string',
    name,
  );
  const out: DocsLicense = { name: name as string };
  const url = optionalString(l.url, 'docs.license.url');
  if (url !== undefined) {
    check(isHttpUrl(url), 'docs.license.url', 'an absolute http(s) URL', url);
    out.url = url;
  }
  return out;
}

function resolveTags(value: unknown): DocsTag[] {
  check(Array.isArray(value), 'docs.tags', 'an array of { name, description? }', value);
  const seen = new Set<string>();
  return (value as unknown[]).map((tag, i) => {
    const field = `docs.tags[${i}]`;
    check(isObject(tag), field, 'an object with a name', tag);
    const { name, description } = tag as Record<string, unknown>;
    check(typeof name === 'string' && name !== '', `${field}.name`, 'a non-empty string', name);
    check(!seen.has(name as string), `${field}.name`, 'unique among the tags', name);
    seen.add(name as string);
    const out: DocsTag = { name: name as string };
    const desc = optionalString(description, `${field}.description`);
    if (desc !== undefined) out.description = desc;
    return out;
  });
}

function resolveServers(value: unknown): ResolvedDocsServer[] {
  check(Array.isArray(value), 'docs.servers', 'an array of strings', value);
  return (value as unknown[]).map((entry, i) => {
    const server = typeof entry === 'string' ? parseServer(entry) : undefined;
    check(
      server !== undefined,
      `docs.servers[${i}]`,
      '"<url>" or "<url> - <description>", the URL absolute http(s) or a path starting with "/"',
      entry,
    );
    return server as ResolvedDocsServer;
  });
}

/** KConfig.docs with its defaults applied; throws a ConfigError naming the first bad field. */
export function resolveDocs(value: unknown, serviceName: string, env: Env): ResolvedDocsConfig {
  check(value === undefined || isObject(value), 'docs', 'an object', value);
  const d = (value ?? {}) as Record<string, unknown>;
  const path = d.path === undefined ? DEFAULTS.docs.path : d.path;
  check(
    typeof path === 'string' && DOCS_PATH.test(path),
    'docs.path',
    'a path like "/docs" or "/api/docs" (no trailing "/", no "//", spaces, "?" or "#")',
    path,
  );
  const docs: ResolvedDocsConfig = {
    path: path as string,
    title: optionalString(d.title, 'docs.title', true) ?? serviceName,
    version: optionalString(d.version, 'docs.version', true) ?? DEFAULTS.docs.version,
    servers: d.servers === undefined ? [] : resolveServers(d.servers),
    tags: d.tags === undefined ? [] : resolveTags(d.tags),
    head: flag(d.head, 'docs.head', DEFAULTS.docs.head),
    builtins: flag(d.builtins, 'docs.builtins', DEFAULTS.docs.builtins),
    enabled: env !== 'production',
  };
  const description = optionalString(d.description, 'docs.description');
  if (description !== undefined) docs.description = description;
  if (d.contact !== undefined) docs.contact = resolveContact(d.contact);
  if (d.license !== undefined) docs.license = resolveLicense(d.license);
  if (d.securitySchemes !== undefined)
    docs.securitySchemes = resolveSecuritySchemes(d.securitySchemes);
  if (d.security !== undefined) docs.security = resolveSecurity(d.security);
  return docs;
}

function flag(value: unknown, field: string, fallback: boolean): boolean {
  if (value === undefined) return fallback;
  check(typeof value === 'boolean', field, 'a boolean', value);
  return value as boolean;
}

function resolveSecurity(value: unknown): Record<string, string[]>[] {
  const ok =
    Array.isArray(value) &&
    value.every(
      (r) =>
        typeof r === 'object' &&
        r !== null &&
        !Array.isArray(r) &&
        Object.values(r).every((s) => Array.isArray(s) && s.every((x) => typeof x === 'string')),
    );
  check(ok, 'docs.security', 'an array of { <scheme name>: [<scope>, …] }', value);
  return (value as Record<string, string[]>[]).map((r) =>
    Object.fromEntries(Object.entries(r).map(([k, v]) => [k, [...v]])),
  );
}
