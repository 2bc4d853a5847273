/**
 * A static file server on 127.0.0.1 for the built docs site: `/x/` serves `/x/index.html`, a
 * path without an extension tries `.html`, anything else missing is the site's 404 page.
 * @module
 */
import { readFile, stat } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize } from 'node:path';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.woff2': 'font/woff2',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
};

/** The file a URL path names under `root`, or undefined when there is none. */
async function fileFor(root: string, urlPath: string): Promise<string | undefined> {
  const path = normalize(decodeURIComponent(urlPath)).replace(/^(\.\.[/\\])+/, '');
  const candidates = path.endsWith('/')
    ? [join(root, path, 'index.html')]
    : [join(root, path), ...(extname(path) ? [] : [join(root, `${path}.html`)])];
  for (const file of candidates) {
    if (!file.startsWith(root)) continue;
    const info = await stat(file).catch(() => undefined);
    if (info?.isFile()) return file;
  }
  return undefined;
}

/** Serves `root` on 127.0.0.1 at a free port; `close()` stops it. */
export async function serveStatic(root: string): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((req, res) => {
    const { pathname } = new URL(req.url ?? '/', 'http://127.0.0.1');
    void fileFor(root, pathname).then(async (file) => {
      const status = file ? 200 : 404;
      const served = file ?? join(root, '404.html');
      const body = await readFile(served);
      res.writeHead(status, {
        'content-type': TYPES[extname(served)] ?? 'application/octet-stream',
      });
      res.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
