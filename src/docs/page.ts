/** The HTML of the docs page for a document served at `specUrl`. */
export function docsPage(title: string, specUrl: string): string {
  const esc = (s: string) => s.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>${esc(title)}</title></head>
<body>
<h1>${esc(title)}</h1>
<p>The OpenAPI document: <a href="${esc(specUrl)}">${esc(specUrl)}</a></p>
</body>
</html>
`;
}
