/**
 * The dev panel's routes under `/_keelson`: the page, its two assets, the state, the health
 * report and the event stream. Hidden from the document; their requests stay out of the log.
 * Each runs behind the access check (same machine, same origin, a Host that is this machine).
 * @module
 */
import { createHash } from 'node:crypto';
import { notFound } from '../errors/index.js';
import type { HealthReport } from '../health/index.js';
import { get } from '../routing/builders.js';
import type { RouteDef } from '../routing/types.js';
import { type PanelAccess, panelAccess } from './access.js';
import { PANEL_SCRIPT, PANEL_STYLE } from './client.js';
import { PANEL_PATH, type PanelFeed } from './feed.js';
import { panelPage } from './page.js';
import { streamFeed } from './stream.js';

/** The panel's JSON snapshot: what does not change on every request. */
export interface PanelState {
  readonly service: string;
  readonly version: string;
  readonly env: string;
  readonly routes: readonly unknown[];
  /** The scheduler's jobs, or null when there is none or it does not report them. */
  readonly jobs: readonly unknown[] | null;
  /** The config with secrets masked. */
  readonly config: unknown;
}

/** What the panel reads from the app. */
export interface PanelSource {
  /** Who the panel answers. */
  readonly access: PanelAccess;
  readonly feed: PanelFeed;
  readonly service: string;
  readonly maxRequests: number;
  readonly maxLogLines: number;
  /** The page's security headers (a page needs more than an API answer). */
  readonly pageHeaders: Readonly<Record<string, string>>;
  /** Aborts when the app starts shutting down: open streams end then. */
  readonly shutdownBegun: AbortSignal;
  state(): PanelState;
  health(signal: AbortSignal): Promise<Pick<HealthReport, 'status' | 'checks'>>;
}

const ASSETS: Readonly<Record<string, { body: string; type: string }>> = {
  'panel.js': { body: PANEL_SCRIPT, type: 'text/javascript; charset=utf-8' },
  'panel.css': { body: PANEL_STYLE, type: 'text/css; charset=utf-8' },
};

/** The panel's routes, to be added as Keelson's own (builtin) routes. */
export function panelRoutes(source: PanelSource): RouteDef[] {
  const version = createHash('sha1')
    .update(PANEL_SCRIPT + PANEL_STYLE)
    .digest('base64url')
    .slice(0, 12);
  const page = panelPage({
    service: source.service,
    base: PANEL_PATH,
    version,
    maxRequests: source.maxRequests,
    maxLogLines: source.maxLogLines,
  });
  const hidden = { hidden: true, middleware: [panelAccess(source.access)] };
  return [
    get(PANEL_PATH, hidden, function devPanelPage(c) {
      c.reply.headers(source.pageHeaders).header('cache-control', 'no-store');
      return c.reply.type('text/html; charset=utf-8').send(page);
    }),
    get(`${PANEL_PATH}/assets/:file`, hidden, function devPanelAsset(c) {
      const asset = Object.hasOwn(ASSETS, c.params.file) ? ASSETS[c.params.file] : undefined;
      if (!asset) throw notFound(`no dev panel asset named ${JSON.stringify(c.params.file)}`);
      c.reply
        .headers(source.pageHeaders)
        .header('cache-control', 'public, max-age=31536000, immutable');
      return c.reply.type(asset.type).send(asset.body);
    }),
    get(`${PANEL_PATH}/api/state`, hidden, function devPanelState(c) {
      c.header('cache-control', 'no-store');
      return source.state();
    }),
    get(`${PANEL_PATH}/api/health`, hidden, function devPanelHealth(c) {
      c.header('cache-control', 'no-store');
      return source.health(c.signal);
    }),
    get(`${PANEL_PATH}/api/events`, hidden, function devPanelEvents(c) {
      return streamFeed(c.reply, source.feed, {}, source.shutdownBegun);
    }),
  ];
}
