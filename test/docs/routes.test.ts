import { describe, expect, it } from 'vitest';
import { get } from '../../src/index.js';
import { testApp } from '../app/helpers.js';

function docsApp(options: Parameters<typeof testApp>[0] = {}) {
  const { app } = testApp(options);
  app.addRoutes(get('/ping', { summary: 'Ping' }, () => ({ ok: true })));
  return app;
}

function assetUrls(html: string): string[] {
  return Array.from(html.matchAll(/(?:src|href)="([^"]+)"/g), (m) => m[1]!.replace(/&#38;/g, '&'));
}

describe('GET /docs/openapi.json', () => {
  it('answers the document the app builds, as JSON', async () => {
    const app = docsApp();
    const res = await app.inject('/docs/openapi.json');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.json()).toEqual(await app.openapi());
    expect(res.json().paths['/ping'].get.summary).toBe('Ping');
  });

  it('answers 304 to a request that already has the same version', async () => {
    const app = docsApp();
    const first = await app.inject('/docs/openapi.json');
    expect(first.headers['cache-control']).toBe('no-cache');
    const again = await app.inject({
      url: '/docs/openapi.json',
      headers: { 'if-none-match': String(first.headers.etag) },
    });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
  });

  it('answers 304 to a weak tag, a list holding the tag, and *; 200 to other tags', async () => {
    const app = docsApp();
    const etag = String((await app.inject('/docs/openapi.json')).headers.etag);
    const status = async (value: string) =>
      (await app.inject({ url: '/docs/openapi.json', headers: { 'if-none-match': value } }))
        .statusCode;
    expect(await status(`W/${etag}`)).toBe(304);
    expect(await status(`"other", ${etag}`)).toBe(304);
    expect(await status(`"a",W/${etag} , "b"`)).toBe(304);
    expect(await status('*')).toBe(304);
    expect(await status('"other", W/"stale"')).toBe(200);
  });

  it('leaves the docs routes themselves out of the document', async () => {
    const paths = Object.keys((await docsApp().openapi()).paths);
    expect(paths.filter((p) => p.startsWith('/docs'))).toEqual([]);
  });

  it('follows docs.path', async () => {
    const app = docsApp({ docs: { path: '/api/reference' } });
    expect((await app.inject('/api/reference/openapi.json')).statusCode).toBe(200);
    expect((await app.inject('/docs/openapi.json')).statusCode).toBe(404);
  });
});

describe('GET /docs', () => {
  it('serves an HTML page titled docs.title, with no inline script', async () => {
    const res = await docsApp({ docs: { title: 'Pets <API>' } }).inject('/docs');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.body).toContain('<title>Pets &#60;API&#62;</title>');
    const scripts = Array.from(res.body.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g));
    expect(scripts.length).toBeGreaterThan(0);
    for (const [, attrs, content] of scripts) {
      expect(attrs).toMatch(/ src="\/docs\/assets\//);
      expect(content).toBe('');
    }
    expect(res.body).not.toMatch(/https?:\/\//);
  });

  it('links only to assets the app serves, with their types and long caching', async () => {
    const app = docsApp();
    const page = await app.inject('/docs');
    const urls = assetUrls(page.body).filter((u) => u.includes('/assets/'));
    expect(urls.map((u) => u.replace(/\?v=.*/, '')).sort()).toEqual([
      '/docs/assets/favicon-16x16.png',
      '/docs/assets/favicon-32x32.png',
      '/docs/assets/index.css',
      '/docs/assets/keelson-docs.js',
      '/docs/assets/swagger-ui-bundle.js',
      '/docs/assets/swagger-ui.css',
    ]);
    const types: Record<string, string> = {
      js: 'text/javascript; charset=utf-8',
      css: 'text/css; charset=utf-8',
      png: 'image/png',
    };
    for (const url of urls) {
      const res = await app.inject(url);
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type'], url).toBe(
        types[url.replace(/\?.*/, '').split('.').pop()!],
      );
      expect(res.headers['cache-control'], url).toBe('public, max-age=31536000, immutable');
      expect(res.headers.etag, url).toMatch(/^"[\w-]+"$/);
      expect(res.rawPayload.length, url).toBeGreaterThan(0);
    }
  });

  it('starts Swagger UI from a served script that reads the document URL off its own tag', async () => {
    const app = docsApp({ docs: { path: '/api/docs' } });
    const page = (await app.inject('/api/docs')).body;
    expect(page).toMatch(
      /<script src="\/api\/docs\/assets\/keelson-docs\.js\?v=[\w-]+" data-spec-url="\/api\/docs\/openapi\.json"><\/script>/,
    );
    const init = (await app.inject('/api/docs/assets/keelson-docs.js')).body;
    expect(init).toContain("document.currentScript.getAttribute('data-spec-url')");
    expect(init).toContain('SwaggerUIBundle(');
  });

  it('answers 404 for an asset it does not have', async () => {
    const res = await docsApp().inject('/docs/assets/swagger-ui.js.map');
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
  });
});

describe('in production', () => {
  it('answers 404 for the page, the document and the assets', async () => {
    const app = docsApp({ env: 'production' });
    for (const url of ['/docs', '/docs/openapi.json', '/docs/assets/keelson-docs.js']) {
      expect((await app.inject(url)).statusCode, url).toBe(404);
    }
    expect((await app.inject('/ping')).statusCode).toBe(200);
  });
});
