/**
 * The HTML of the docs page: Swagger UI, every script and style a same-origin file.
 * @module
 */
import { INIT_SCRIPT } from './assets.js';

/** `s` with the five characters that are special in HTML written as character references. */
export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

/**
 * The page served at `docs.path`; `versions` gives each file's version for its URL, so the
 * files can be cached for good.
 */
export function docsPage(
  title: string,
  docsPath: string,
  versions: ReadonlyMap<string, string>,
): string {
  const url = (file: string) => {
    const v = versions.get(file) ?? '';
    return escapeHtml(`${docsPath}/assets/${file}?v=${v}`);
  };
  const spec = escapeHtml(`${docsPath}/openapi.json`);
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
<div id="swagger-ui"></div>
<noscript><p>The API reference needs JavaScript. The OpenAPI document: <a href="${spec}">${spec}</a></p></noscript>
<script src="${url('swagger-ui-bundle.js')}"></script>
<script src="${url(INIT_SCRIPT)}" data-spec-url="${spec}"></script>
</body>
</html>
`;
}
