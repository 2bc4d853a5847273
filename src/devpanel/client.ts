/**
 * The dev panel's script and style, served as same-origin files: the page has no inline script
 * or style, so a `script-src 'self'` Content-Security-Policy holds.
 * @module
 */

/** The panel's script: reads the state once, then follows the event stream. */
export const PANEL_SCRIPT = `'use strict';
(function panel() {
  var body = document.body;
  var base = body.getAttribute('data-base');
  var maxRequests = Number(body.getAttribute('data-max-requests')) || 100;
  var maxLogs = Number(body.getAttribute('data-max-logs')) || 200;
  var $ = function (id) { return document.getElementById(id); };

  function cell(row, text, cls) {
    var td = document.createElement('td');
    td.textContent = text == null ? '' : String(text);
    if (cls) td.className = cls;
    row.appendChild(td);
    return td;
  }
  function clear(node) { while (node.firstChild) node.removeChild(node.firstChild); }
  function time(ms) { return ms ? new Date(ms).toLocaleTimeString() : '-'; }
  function statusClass(s) { return s >= 500 ? 'err' : s >= 400 ? 'warn' : 'ok'; }

  function addRequest(r) {
    var table = $('requests');
    var row = document.createElement('tr');
    row.className = 'request';
    row.setAttribute('data-request-id', r.requestId);
    cell(row, time(r.time));
    cell(row, r.method, 'method');
    cell(row, r.path, 'path');
    cell(row, r.status, statusClass(r.status));
    cell(row, r.durationMs.toFixed(1) + ' ms', 'num');
    var queries = r.queries || [];
    var q = cell(row, queries.length ? String(queries.length) : '', 'num queries');
    q.title = queries.map(function (x) { return x.durationMs.toFixed(1) + ' ms' + (x.failed ? ' (failed) ' : ' ') + x.text; }).join('\\n');
    cell(row, r.requestId, 'id');
    table.insertBefore(row, table.firstChild);
    while (table.childNodes.length > maxRequests) table.removeChild(table.lastChild);
  }
  function addLog(l) {
    var box = $('logs');
    var line = document.createElement('div');
    line.className = 'line ' + (/ERROR|"error"/.test(l.line) ? 'err' : /WARN|"warn"/.test(l.line) ? 'warn' : '');
    line.textContent = l.line;
    box.appendChild(line);
    while (box.childNodes.length > maxLogs) box.removeChild(box.firstChild);
    box.scrollTop = box.scrollHeight;
  }

  function renderRoutes(routes) {
    var table = $('routes');
    clear(table);
    routes.forEach(function (r) {
      var row = document.createElement('tr');
      cell(row, r.method, 'method');
      cell(row, r.path, 'path');
      cell(row, r.operationId || '(not documented)');
      cell(row, r.middleware.join(', ') || '-');
      cell(row, r.source);
      table.appendChild(row);
    });
  }
  function renderJobs(jobs) {
    var table = $('jobs');
    clear(table);
    if (!jobs) { $('jobs-note').textContent = 'No scheduler registered, or it does not report its jobs.'; return; }
    jobs.forEach(function (j) {
      var row = document.createElement('tr');
      cell(row, j.name);
      cell(row, j.schedule, 'mono');
      cell(row, j.running ? 'running' : 'idle');
      cell(row, j.runs, 'num');
      cell(row, j.lastRun ? new Date(j.lastRun).toLocaleString() : '-');
      cell(row, j.nextRun ? new Date(j.nextRun).toLocaleString() : '-');
      cell(row, j.lastError || '', j.lastError ? 'err' : '');
      table.appendChild(row);
    });
  }
  function loadState() {
    return fetch(base + '/api/state').then(function (res) { return res.json(); }).then(function (s) {
      $('service').textContent = s.service + ' ' + s.version + ' (' + s.env + ')';
      renderRoutes(s.routes);
      renderJobs(s.jobs);
      $('config').textContent = JSON.stringify(s.config, null, 2);
    });
  }
  function loadHealth() {
    $('health-status').textContent = 'checking…';
    return fetch(base + '/api/health').then(function (res) { return res.json(); }).then(function (h) {
      $('health-status').textContent = h.status;
      $('health-status').className = h.status === 'UP' ? 'ok' : 'err';
      var table = $('health');
      clear(table);
      if (Object.keys(h.checks).length === 0) cell(table.insertRow(), 'no health checkers registered');
      Object.keys(h.checks).forEach(function (name) {
        var row = document.createElement('tr');
        cell(row, name);
        cell(row, h.checks[name], h.checks[name] === 'UP' ? 'ok' : 'err');
        table.appendChild(row);
      });
    });
  }

  var events = new EventSource(base + '/api/events');
  events.addEventListener('hello', function () { clear($('requests')); clear($('logs')); });
  events.addEventListener('request', function (e) { addRequest(JSON.parse(e.data)); });
  events.addEventListener('log', function (e) { addLog(JSON.parse(e.data)); });
  events.onopen = function () { $('live').textContent = 'live'; $('live').className = 'ok'; };
  events.onerror = function () { $('live').textContent = 'reconnecting'; $('live').className = 'warn'; };
  $('refresh-health').addEventListener('click', loadHealth);
  $('refresh-state').addEventListener('click', loadState);
  loadState();
  loadHealth();
})();
`;

/** The panel's style sheet. */
export const PANEL_STYLE = `*{box-sizing:border-box}
body{margin:0;font:14px/1.4 system-ui,sans-serif;color:#1d232b;background:#f5f6f8}
header{display:flex;gap:1rem;align-items:baseline;padding:.75rem 1.25rem;background:#1d232b;color:#fff}
header h1{font-size:1.1rem;margin:0}
main{display:grid;grid-template-columns:repeat(auto-fit,minmax(32rem,1fr));gap:1rem;padding:1rem}
section{background:#fff;border:1px solid #dde1e6;border-radius:6px;padding:.75rem 1rem;overflow:auto;max-height:28rem}
section.wide{grid-column:1/-1}
h2{font-size:1rem;margin:.25rem 0 .5rem;display:flex;gap:.5rem;align-items:center}
table{border-collapse:collapse;width:100%}
td,th{text-align:left;padding:.2rem .5rem;border-bottom:1px solid #eef0f3;white-space:nowrap}
.mono,.id,.path,pre,#logs{font-family:ui-monospace,monospace;font-size:12.5px}
.method{font-weight:600}.num{text-align:right}
.ok{color:#0a7a2f}.warn{color:#a36200}.err{color:#b3261e}
#logs .line{white-space:pre-wrap;word-break:break-all;border-bottom:1px solid #f1f2f4}
button{font:inherit;font-size:12px;padding:.1rem .5rem;cursor:pointer}
pre{margin:0}
`;
