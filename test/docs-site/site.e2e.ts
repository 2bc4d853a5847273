import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumTool, launchChromium, localPage } from '../support/chromium.js';
import { ROOT } from './snippets.js';
import { serveStatic } from './static-server.js';

// The built docs site (`npm run docs:build`), served on 127.0.0.1 and opened in Chromium page by
// page: `npm run test:docs` builds it and runs this file.

const DIST = join(ROOT, 'docs/.vitepress/dist');

/** Every page of the built site, as a URL path: `/guide/routing.html`. */
function sitePages(dir = DIST): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sitePages(path);
    if (!entry.name.endsWith('.html') || entry.name === '404.html') return [];
    return [`/${relative(DIST, path)}`];
  });
}

/** What one page showed: its errors, its links (absolute URLs) and the ids of its elements. */
interface Visit {
  errors: string[];
  links: string[];
  ids: string[];
}

/** The path of the page a same-site URL opens: `/api/` → `/api/index.html`. */
function pageOf(url: URL): string {
  const path = decodeURIComponent(url.pathname);
  if (path.endsWith('/')) return `${path}index.html`;
  return path.endsWith('.html') ? path : `${path}.html`;
}

describe.skipIf(!chromiumTool.available)('the docs site in Chromium', () => {
  let server: { url: string; close(): Promise<void> };
  let browser: BrowserContext;
  let profile: string;
  const visits = new Map<string, Visit>();
  const elsewhere: string[] = [];

  beforeAll(async () => {
    if (!existsSync(join(DIST, 'index.html'))) {
      throw new Error('docs/.vitepress/dist has no site: run npm run docs:build first');
    }
    server = await serveStatic(DIST);
    profile = mkdtempSync(join(tmpdir(), 'keelson-docs-chromium-'));
    browser = await launchChromium(profile);
    // Every page, in two tabs. The written pages are loaded from their own URL (their
    // pre-rendered HTML, then hydrated); the generated API pages, hundreds, are opened by the
    // site's own router from a loaded page, as a reader's click opens them: a full load each
    // would take minutes. Each error is told apart by the page that showed it.
    const queue = sitePages();
    const tab = async (): Promise<void> => {
      const { page, elsewhere: away, errors } = await localPage(browser);
      let loaded = false;
      for (let path = queue.shift(); path !== undefined; path = queue.shift()) {
        const before = errors.length;
        if (loaded && path.startsWith('/api/')) await routeTo(page, path);
        else await page.goto(server.url + path, { waitUntil: 'load' });
        loaded = true;
        const seen = {
          links: await page
            .locator('a[href]')
            .evaluateAll((links) => links.map((a) => (a as unknown as { href: string }).href)),
          ids: await page.locator('[id]').evaluateAll((els) => els.map((e) => e.id)),
          notFound: (await page.locator('.NotFound').count()) > 0,
        };
        const shown = seen.notFound ? ['the page shows "PAGE NOT FOUND"'] : [];
        visits.set(path, { errors: [...errors.slice(before), ...shown], ...seen });
      }
      elsewhere.push(...away);
      await page.close();
    };
    await Promise.all([tab(), tab()]);
  }, 300_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    if (profile) rmSync(profile, { recursive: true, force: true });
  });

  it('opens every page, the guides, the reference and the API pages among them', () => {
    const paths = [...visits.keys()];
    expect(paths.length).toBeGreaterThan(100);
    for (const page of [
      '/index.html',
      '/guide/first-service.html',
      '/guide/how-it-works.html',
      '/guide/routing.html',
      '/reference/app-options.html',
      '/api/index.html',
      '/api/keelson/classes/App.html',
    ]) {
      expect(paths).toContain(page);
    }
  });

  it('shows no console error on any page and asks no other host for anything', () => {
    const errors = [...visits].flatMap(([path, v]) => v.errors.map((e) => `${path}: ${e}`));
    expect(errors).toEqual([]);
    expect(elsewhere).toEqual([]);
  });

  it('has no internal link to a page or an anchor that does not exist', () => {
    const broken: string[] = [];
    for (const [path, visit] of visits) {
      for (const href of visit.links) {
        const url = new URL(href);
        if (url.origin !== server.url) continue;
        const target = pageOf(url);
        const there = visits.get(target);
        if (!there) {
          broken.push(`${path} → ${url.pathname}`);
          continue;
        }
        const anchor = decodeURIComponent(url.hash.slice(1));
        if (anchor && !there.ids.includes(anchor)) broken.push(`${path} → ${target}#${anchor}`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('highlights the code samples', async () => {
    const { page } = await localPage(browser);
    await page.goto(`${server.url}/guide/routing.html`, { waitUntil: 'load' });
    const tokens = await page
      .locator('div.language-ts pre.shiki span[style*="--shiki-light"]')
      .count();
    expect(tokens).toBeGreaterThan(50);
    await page.close();
  });

  it('finds "rate limit" with its local search', async () => {
    const { page } = await localPage(browser);
    await page.goto(`${server.url}/index.html`, { waitUntil: 'load' });
    await openSearch(page);
    await page.locator('.VPLocalSearchBox input').fill('rate limit');
    const results = page.locator('.VPLocalSearchBox .results a');
    await results.first().waitFor({ timeout: 10_000 });
    const hrefs = await results.evaluateAll((links) =>
      links.map((a) => (a as unknown as { pathname: string }).pathname),
    );
    expect(hrefs).toContain('/guide/routing.html');
    await page.close();
  });
});

/**
 * Opens `path` with VitePress's own router, as a click on a link does (no full load): the router
 * is what the site's Vue app provides under a symbol, the one with a `go` method.
 */
async function routeTo(page: Page, path: string): Promise<void> {
  await page.evaluate(async (to) => {
    // Runs in the page: its globals, typed here by what is used of them.
    type Router = { go(to: string): Promise<void> };
    type VueApp = { _context: { provides: Record<symbol, unknown> } };
    const page = globalThis as unknown as {
      document: { querySelector(selector: string): { __vue_app__?: VueApp } | null };
      requestAnimationFrame(callback: () => void): void;
    };
    const app = page.document.querySelector('#app')?.__vue_app__;
    if (!app) throw new Error('the VitePress app is not mounted');
    const provides = app._context.provides;
    const router = Object.getOwnPropertySymbols(provides)
      .map((key) => provides[key] as Partial<Router> | undefined)
      .find((value): value is Router => typeof value?.go === 'function');
    if (!router) throw new Error('no router in the VitePress app');
    await router.go(to);
    await new Promise<void>((resolve) => page.requestAnimationFrame(resolve));
  }, path);
}

/** Opens VitePress's search box, retrying the click until the app has hydrated. */
async function openSearch(page: Page): Promise<void> {
  const box = page.locator('.VPLocalSearchBox input');
  for (let attempt = 0; attempt < 20 && !(await box.isVisible()); attempt++) {
    await page.locator('.VPNavBarSearch button').click();
    await box.waitFor({ timeout: 500 }).catch(() => {});
  }
  await box.waitFor({ timeout: 5_000 });
}
