/**
 * The docs routes: the page, the document and the page's assets, all hidden from the document.
 * @module
 */
import { createHash } from 'node:crypto';
import type { ResolvedDocsConfig } from '../config/index.js';
import { notFound } from '../errors/index.js';
import { get } from '../routing/builders.js';
import type { Context } from '../routing/context.js';
import type { RouteDef } from '../routing/types.js';
import { assetVersions, docsAssets } from './assets.js';
import type { OpenApiDocuments } from './documents.js';
import { docsPage, documentUrl } from './page.js';

/** Versioned asset URLs never change content, so a browser may keep them for a year. */
const IMMUTABLE = 'public, max-age=31536000, immutable';
/** The page and the document may change with each deploy: revalidate every time. */
const REVALIDATE = 'no-cache';

/** What the docs routes need from the app. */
export interface DocsRouteOptions {
  /** The resolved docs config: path and title. */
  readonly docs: ResolvedDocsConfig;
  /** The app's documents, built by the time the first request arrives. */
  readonly documents: Pick<OpenApiDocuments, 'get'>;
  /** The API versions, each with a document at `<path>/<version>/openapi.json`. */
  readonly versions: readonly string[];
  /** Security headers for the page and its assets (a page needs more than an API answer). */
  readonly headers: Readonly<Record<string, string>>;
}

function send(c: Context, body: string | Buffer, type: string, etag: string, cache: string) {
  c.reply.header('cache-control', cache).header('etag', etag).type(type);
  if (matchesEtag(c.request.headers['if-none-match'], etag)) return c.reply.code(304).send();
  return c.reply.code(200).send(body);
}

/**
 * Whether an `If-None-Match` value matches `etag` by the weak comparison RFC 9110 asks of it:
 * `*`, or any tag of the list once `W/` is set aside.
 */
function matchesEtag(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  const opaque = etag.replace(/^W\//, '');
  for (const tag of header.split(',')) {
    const t = tag.trim();
    if (t === '*' || t.replace(/^W\//, '') === opaque) return true;
  }
  return false;
}

function etagOf(s: string): string {
  return `"${createHash('sha1').update(s).digest('base64url')}"`;
}

/**
 * `GET <path>`, `GET <path>/openapi.json`, `GET <path>/<version>/openapi.json` for each API
 * version, and `GET <path>/assets/:file`, as builtin routes.
 */
export function docsRoutes({ docs, documents, versions, headers }: DocsRouteOptions): RouteDef[] {
  const page = docsPage(docs.title, docs.path, assetVersions(), versions);
  const pageEtag = etagOf(page);
  const documentRoute = (version?: string) => {
    let json: { body: string; etag: string } | undefined;
    return get(documentUrl(docs.path, version), { hidden: true }, function openApiRoute(c) {
      if (!json) {
        const body = JSON.stringify(documents.get(version));
        json = { body, etag: etagOf(body) };
      }
      return send(c, json.body, 'application/json; charset=utf-8', json.etag, REVALIDATE);
    });
  };
  return [
    get(docs.path, { hidden: true }, function docsPageRoute(c) {
      c.reply.headers(headers);
      return send(c, page, 'text/html; charset=utf-8', pageEtag, REVALIDATE);
    }),
    documentRoute(),
    ...versions.map((v) => documentRoute(v)),
    get(`${docs.path}/assets/:file`, { hidden: true }, function docsAssetRoute(c) {
      const file = docsAssets().get(c.params.file);
      if (!file) throw notFound(`no docs asset named ${JSON.stringify(c.params.file)}`);
      c.reply.headers(headers);
      return send(c, file.body, file.type, file.etag, IMMUTABLE);
    }),
  ];
}
