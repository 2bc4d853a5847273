/**
 * The HTML of the docs page: Swagger UI, every script and style a same-origin file.
 * @module
 */
import { INIT_SCRIPT } from './assets.js';

/** `s` with the five characters that are special in HTML written as character references. */
export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

/** The URL of the document of `version` (every route's when undefined) under `docsPath`. */
export function documentUrl(docsPath: string, version?: string): string {
  return version === undefined ? `${docsPath}/openapi.json` : `${docsPath}/${version}/openapi.json`;
}

// The version picker: one option per API version after the whole document's.
function versionPicker(docsPath: string, apiVersions: readonly string[]): string {
  if (!apiVersions.length) return '';
  const option = (value: string, label: string, url: string) =>
    `<option value="${escapeHtml(value)}" data-spec-url="${escapeHtml(url)}">${escapeHtml(label)}</option>`;
  const options = [
    option('', 'all versions', documentUrl(docsPath)),
    ...apiVersions.map((v) => option(v, v, documentUrl(docsPath, v))),
  ];
  return `<form class="keelson-versions"><label>API version <select id="keelson-version">${options.join('')}</select></label></form>\n`;
}

/**
 * The page served at `docs.path`; `versions` gives each file's version for its URL, so the
 * files can be cached for good; `apiVersions`, the API versions the picker offers.
 */
export function docsPage(
  title: string,
  docsPath: string,
  versions: ReadonlyMap<string, string>,
  apiVersions: readonly string[] = [],
): string {
  const url = (file: string) => {
    const v = versions.get(file) ?? '';
    return escapeHtml(`${docsPath}/assets/${file}?v=${v}`);
  };
  const spec = escapeHtml(documentUrl(docsPath));
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<link rel="icon" type="image/png" sizes="32x32" href="${url('favicon-32x32.png')}">
<link rel="icon" type="image/png" sizes="16x16" href="${url('favicon-16x16.png')}">
<link rel="stylesheet" href="${url('index.css')}">
<link rel="stylesheet" href="${url('swagger-ui.css')}">
</head>
<body>
${versionPicker(docsPath, apiVersions)}<div id="swagger-ui"></div>
<noscript><p>The API reference needs JavaScript. The OpenAPI document: <a href="${spec}">${spec}</a></p></noscript>
<script src="${url('swagger-ui-bundle.js')}"></script>
<script src="${url(INIT_SCRIPT)}" data-spec-url="${spec}"></script>
</body>
</html>
`;
}
