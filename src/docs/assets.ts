/**
 * The docs page's assets: Swagger UI from the installed @fastify/swagger-ui package (its `static/`
 * folder: the same files as swagger-ui-dist, without swagger-ui-dist's install-time telemetry), and Keelson's
 * own initializer. Read once per process, served from memory.
 * @module
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/** One file the docs page loads. */
export interface Asset {
  /** The bytes sent. */
  readonly body: Buffer;
  /** Its Content-Type. */
  readonly type: string;
  /** A strong ETag of the bytes, also the `?v=` of the page's URL for it. */
  readonly etag: string;
}

/** The name of the script that starts Swagger UI; it reads the document URL off its own tag. */
export const INIT_SCRIPT = 'keelson-docs.js';

// No inline script on the page, so a Content-Security-Policy of `script-src 'self'` holds.
// With API versions, the page's picker names one (`?version=v2`): its document is shown, and
// choosing another reloads the page with it.
const INIT_SOURCE = `'use strict';
(function startDocs() {
  var url = document.currentScript.getAttribute('data-spec-url');
  var picker = document.getElementById('keelson-version');
  if (picker) {
    var wanted = new URLSearchParams(location.search).get('version') || '';
    for (var i = 0; i < picker.options.length; i++) {
      var option = picker.options[i];
      if (option.value === wanted) {
        picker.selectedIndex = i;
        url = option.getAttribute('data-spec-url');
      }
    }
    picker.addEventListener('change', function pickVersion() {
      location.search = picker.value ? '?version=' + encodeURIComponent(picker.value) : '';
    });
  }
  window.ui = SwaggerUIBundle({
    url: url,
    dom_id: '#swagger-ui',
    deepLinking: true,
    presets: [SwaggerUIBundle.presets.apis],
    layout: 'BaseLayout',
    validatorUrl: null,
  });
})();
`;

const FROM_PACKAGE: Readonly<Record<string, string>> = {
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'swagger-ui.css': 'text/css; charset=utf-8',
  'index.css': 'text/css; charset=utf-8',
  'favicon-32x32.png': 'image/png',
  'favicon-16x16.png': 'image/png',
};

let loaded: ReadonlyMap<string, Asset> | undefined;

function asset(body: Buffer, type: string): Asset {
  return { body, type, etag: `"${hash(body)}"` };
}

function hash(body: Buffer | string): string {
  return createHash('sha1').update(body).digest('base64url');
}

/** The folder of the installed @fastify/swagger-ui; throws a clear error when it is missing. */
function packageDir(): string {
  try {
    return dirname(createRequire(import.meta.url).resolve('@fastify/swagger-ui/package.json'));
  } catch (err) {
    throw new Error(
      `the docs page needs the @fastify/swagger-ui package, which cannot be found: ${(err as Error).message}`,
    );
  }
}

/**
 * A version for each asset's URL, without reading the assets: the package's version for its
 * files, a hash for Keelson's initializer. The page needs only these, so the ~1.5 MB of Swagger
 * UI is read when a browser first asks for it, not at every start.
 */
export function assetVersions(): ReadonlyMap<string, string> {
  const pkg = JSON.parse(readFileSync(join(packageDir(), 'package.json'), 'utf8')) as {
    version?: unknown;
  };
  const version = String(pkg.version ?? '0');
  const versions = new Map<string, string>();
  for (const file of Object.keys(FROM_PACKAGE)) versions.set(file, version);
  versions.set(INIT_SCRIPT, hash(INIT_SOURCE).slice(0, 12));
  return versions;
}

/** The assets by file name; reads the Swagger UI files on the first call. */
export function docsAssets(): ReadonlyMap<string, Asset> {
  if (loaded) return loaded;
  const dir = packageDir();
  const assets = new Map<string, Asset>();
  for (const [file, type] of Object.entries(FROM_PACKAGE)) {
    assets.set(file, asset(readFileSync(join(dir, 'static', file)), type));
  }
  assets.set(INIT_SCRIPT, asset(Buffer.from(INIT_SOURCE), 'text/javascript; charset=utf-8'));
  loaded = assets;
  return assets;
}
