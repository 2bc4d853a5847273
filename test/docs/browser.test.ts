// The docs page in a real browser: Debian's chromium, driven by playwright-core, with every
// request to another host aborted and a `script-src 'self'` Content-Security-Policy.
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../src/index.js';
import { chromiumTool, launchChromium, localPage } from '../support/chromium.js';
import { exampleApp } from '../support/example-app.js';

const SCREENSHOT = join(dirname(fileURLToPath(import.meta.url)), '../../.tmp/docs.png');
const CSP =
  "default-src 'self'; script-src 'self'; script-src-attr 'none'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; object-src 'none'; base-uri 'self'";

describe.skipIf(!chromiumTool.available)('the docs page in a browser', () => {
  let app: App;
  let baseUrl: string;
  let profile: string;
  let browser: BrowserContext | undefined;

  beforeAll(async () => {
    app = await exampleApp({ env: 'development' });
    // The app's own security headers when it sends a CSP (helmet's defaults), else a strict one.
    app.fastify.addHook('onSend', async (_request, reply) => {
      if (!reply.hasHeader('content-security-policy')) reply.header('content-security-policy', CSP);
    });
    await app.ready();
    baseUrl = await app.fastify.listen({ port: 0, host: '127.0.0.1' });
    profile = await mkdtemp(join(tmpdir(), 'keelson-chromium-'));
  });

  afterAll(async () => {
    await browser?.close();
    await app.close();
    await rm(profile, { recursive: true, force: true });
  });

  it('renders the summary of every operation, loading nothing from another host', async () => {
    browser = await launchChromium(profile, { width: 1280, height: 900 });
    const { page, elsewhere, errors } = await localPage(browser);

    const response = await page.goto(`${baseUrl}/docs`);
    const csp = response?.headers()['content-security-policy'] ?? '';
    await page.locator('.opblock-summary-description').first().waitFor();
    const doc = await app.openapi();
    const summaries = Object.values(doc.paths)
      .flatMap((item) => Object.values(item))
      .map((op) => op.summary);
    const rendered = await page.locator('.opblock-summary-description').allTextContents();
    await mkdir(dirname(SCREENSHOT), { recursive: true });
    await page.screenshot({ path: SCREENSHOT, fullPage: true });

    expect(csp).toMatch(/script-src 'self'(;|$)/);
    expect(await page.title()).toBe('Users API');
    expect(rendered.sort()).toEqual(summaries.sort());
    expect(elsewhere).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('shows the document of the version picked, and reloads with another', async () => {
    browser ??= await launchChromium(profile, { width: 1280, height: 900 });
    const { page, elsewhere, errors } = await localPage(browser);
    await page.goto(`${baseUrl}/docs?version=v2`);
    await page.locator('.opblock-summary-description').first().waitFor();
    expect(await page.locator('#keelson-version').inputValue()).toBe('v2');
    const paths = await page.locator('.opblock-summary-path').allTextContents();
    expect(paths.some((p) => p.startsWith('/api/v2/'))).toBe(true);
    expect(paths.some((p) => p.startsWith('/api/v1/'))).toBe(false);
    await Promise.all([
      page.waitForURL(/version=v1$/),
      page.selectOption('#keelson-version', 'v1'),
    ]);
    await page.locator('.opblock-summary-description').first().waitFor();
    const v1 = await page.locator('.opblock-summary-path').allTextContents();
    expect(v1.some((p) => p.startsWith('/api/v1/'))).toBe(true);
    expect(v1.some((p) => p.startsWith('/api/v2/'))).toBe(false);
    expect(await page.locator('.opblock-deprecated').count()).toBeGreaterThan(0);
    expect(elsewhere).toEqual([]);
    expect(errors).toEqual([]);
  });
});
