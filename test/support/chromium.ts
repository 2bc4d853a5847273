/**
 * Debian's chromium driven by playwright-core, for the tests that look at a page: launched with
 * the flags this machine needs, and pages that abort every request to another host.
 * @module
 */
import { type BrowserContext, chromium, type Page } from 'playwright-core';
import { systemTool } from './system-tool.js';

const CHROMIUM = '/usr/bin/chromium';

/** Debian's chromium, or why the browser tests skip (they fail in CI without it). */
export const chromiumTool = systemTool(CHROMIUM, 'chromium');

/** Starts a headless chromium with its profile in `profile` (an empty folder). */
export function launchChromium(
  profile: string,
  viewport?: { width: number; height: number },
): Promise<BrowserContext> {
  return chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
    ...(viewport ? { viewport } : {}),
  });
}

/** A new page whose requests to hosts other than 127.0.0.1 are aborted and listed, with its errors. */
export async function localPage(
  browser: BrowserContext,
): Promise<{ page: Page; elsewhere: string[]; errors: string[] }> {
  const page = await browser.newPage();
  const elsewhere: string[] = [];
  await page.route('**/*', (route) => {
    const url = new URL(route.request().url());
    if (url.hostname === '127.0.0.1') return route.continue();
    elsewhere.push(url.href);
    return route.abort();
  });
  const errors: string[] = [];
  page.on('pageerror', (err) => errors.push(err.message));
  page.on('console', (msg) => {
    if (msg.type() === 'error') errors.push(msg.text());
  });
  return { page, elsewhere, errors };
}
