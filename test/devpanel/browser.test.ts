// The dev panel in a real browser: Debian's chromium, driven by playwright-core, with every
// request to another host aborted. A request made to the service shows up in the page.
import { randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { App, get } from '../../src/index.js';
import { memoryLogger } from '../app/helpers.js';
import { chromiumTool, launchChromium, localPage } from '../support/chromium.js';

const SCREENSHOT = join(dirname(fileURLToPath(import.meta.url)), '../../.tmp/devpanel.png');

async function serve(env: 'development' | 'production'): Promise<{ app: App; url: string }> {
  const app = new App({ serviceName: 'panel-svc', env, logger: memoryLogger().logger });
  app.addRoutes(
    get('/items/:id', (c) => {
      c.log.info('looked up item %s', c.params.id);
      return { id: c.params.id };
    }),
  );
  await app.ready();
  return { app, url: await app.fastify.listen({ port: 0, host: '127.0.0.1' }) };
}

describe.skipIf(!chromiumTool.available)('the dev panel in a browser', () => {
  let dev: { app: App; url: string };
  let prod: { app: App; url: string };
  let profile: string;
  let browser: BrowserContext | undefined;

  beforeAll(async () => {
    dev = await serve('development');
    prod = await serve('production');
    profile = await mkdtemp(join(tmpdir(), 'keelson-panel-chromium-'));
  });

  afterAll(async () => {
    await browser?.close();
    await dev.app.close();
    await prod.app.close();
    await rm(profile, { recursive: true, force: true });
  });

  it('shows a request made to the service within 2 s, loading nothing from another host; 404 in production', async () => {
    browser = await launchChromium(profile);
    const { page, elsewhere, errors } = await localPage(browser);

    const response = await page.goto(`${dev.url}/_keelson`);
    expect(response?.status()).toBe(200);
    expect(response?.headers()['content-security-policy']).toMatch(/script-src 'self'/);
    await page.locator('#live', { hasText: 'live' }).waitFor();
    await page.locator('#routes tr', { hasText: 'getItemsById' }).waitFor();

    const id = randomUUID();
    const answer = await fetch(`${dev.url}/items/${id}`);
    expect(answer.status).toBe(200);
    const row = page.locator('#requests tr', { hasText: `/items/${id}` });
    await row.waitFor({ timeout: 2000 });
    expect(await row.locator('td').allTextContents()).toEqual([
      expect.any(String),
      'GET',
      `/items/${id}`,
      '200',
      expect.stringMatching(/^\d+\.\d ms$/),
      '',
      expect.stringMatching(/\S/),
    ]);
    await page
      .locator('#logs .line', { hasText: `looked up item ${id}` })
      .waitFor({ timeout: 2000 });
    // The panel's own requests (page, assets, state, health, stream) are not among them.
    expect(await page.locator('#requests tr', { hasText: '/_keelson' }).count()).toBe(0);
    await page.locator('#health-status', { hasText: 'UP' }).waitFor();

    await mkdir(dirname(SCREENSHOT), { recursive: true });
    await page.screenshot({ path: SCREENSHOT, fullPage: true });
    expect(errors).toEqual([]);

    const inProduction = await page.goto(`${prod.url}/_keelson`);
    expect(inProduction?.status()).toBe(404);
    expect(elsewhere).toEqual([]);
  });
});
