/**
 * The dev panel's HTML: sections filled in by the panel's script, no inline script or style.
 * @module
 */
import { escapeHtml } from '../docs/page.js';

/** What the page shows and links to. */
export interface PanelPageOptions {
  /** The service name, for the title. */
  readonly service: string;
  /** The panel's path, e.g. `/_keelson`. */
  readonly base: string;
  /** `?v=` of the script and style URLs, so a new version is fetched. */
  readonly version: string;
  readonly maxRequests: number;
  readonly maxLogLines: number;
}

/** The panel's page. */
export function panelPage(o: PanelPageOptions): string {
  const asset = (file: string) => escapeHtml(`${o.base}/assets/${file}?v=${o.version}`);
  const head = (cols: string[]) =>
    `<thead><tr>${cols.map((c) => `<th>${c}</th>`).join('')}</tr></thead>`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(o.service)} · Keelson dev panel</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${asset('panel.css')}">
</head>
<body data-base="${escapeHtml(o.base)}" data-max-requests="${o.maxRequests}" data-max-logs="${o.maxLogLines}">
<header><h1>Keelson dev panel</h1><span id="service">${escapeHtml(o.service)}</span><span id="live" class="warn">connecting</span></header>
<main>
<section class="wide"><h2>Requests</h2><table>${head(['time', 'method', 'path', 'status', 'duration', 'queries', 'request id'])}<tbody id="requests"></tbody></table></section>
<section class="wide"><h2>Log</h2><div id="logs"></div></section>
<section><h2>Routes <button id="refresh-state" type="button">refresh</button></h2><table>${head(['method', 'path', 'operationId', 'middleware', 'source'])}<tbody id="routes"></tbody></table></section>
<section><h2>Health <span id="health-status"></span> <button id="refresh-health" type="button">check</button></h2><table><tbody id="health"></tbody></table></section>
<section><h2>Scheduled jobs</h2><p id="jobs-note"></p><table>${head(['job', 'schedule', 'state', 'runs', 'last run', 'next run', 'last error'])}<tbody id="jobs"></tbody></table></section>
<section><h2>Config <small>(secrets masked)</small></h2><pre id="config"></pre></section>
</main>
<noscript><p>The dev panel needs JavaScript.</p></noscript>
<script src="${asset('panel.js')}"></script>
</body>
</html>
`;
}
