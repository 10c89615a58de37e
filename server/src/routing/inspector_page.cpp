// The request inspector's page, script and stylesheet (see inspector_page.hpp).

#include "inspector_page.hpp"

#include <string>

namespace storefront::server {

namespace {

// Scripts and styles from this origin only; fetch and EventSource to this origin only.
constexpr std::string_view content_security_policy =
    "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; base-uri 'none'; "
    "frame-ancestors 'none'; form-action 'none'";

constexpr std::string_view page_html = R"(<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Request inspector</title>
<link rel="stylesheet" href="inspector/inspector.css">
</head>
<body>
<header>
  <h1>Request inspector <span id="sandbox"></span></h1>
  <span id="state">connecting…</span>
  <button id="clear" type="button">Clear</button>
</header>
<main>
  <table id="list">
    <thead><tr><th>Time</th><th>Method</th><th>Path</th><th>Status</th><th>ms</th></tr></thead>
    <tbody id="rows"></tbody>
  </table>
  <section id="detail" hidden>
    <h2 id="detail-title"></h2>
    <h3>Request headers</h3><pre id="request-headers"></pre>
    <h3>Request body <small id="request-flags"></small></h3><pre id="request-body"></pre>
    <h3>Response headers</h3><pre id="response-headers"></pre>
    <h3>Response body <small id="response-flags"></small></h3><pre id="response-body"></pre>
  </section>
</main>
<script src="inspector/inspector.js"></script>
</body>
</html>
)";

constexpr std::string_view page_css = R"(body { font: 14px system-ui, sans-serif; margin: 0; }
header { display: flex; gap: 1em; align-items: center; padding: .5em 1em; background: #223; color: #fff; }
header h1 { font-size: 1.1em; margin: 0; flex: 1; }
main { display: flex; gap: 1em; padding: 1em; align-items: flex-start; }
table { border-collapse: collapse; flex: 1; }
th, td { text-align: left; padding: .2em .5em; border-bottom: 1px solid #ddd; font-family: monospace; }
tbody tr { cursor: pointer; }
tbody tr:hover, tbody tr.selected { background: #eef; }
td.error { color: #b00; }
#detail { flex: 1; min-width: 0; }
pre { background: #f6f6f6; padding: .5em; white-space: pre-wrap; word-break: break-all; }
)";

constexpr std::string_view page_js = R"JS('use strict';
// The sandbox's base path from this page's: /sandbox/{id}/inspector -> /sandbox/{id}
const base = location.pathname.replace(/\/inspector\/?$/, '');
const rows = document.getElementById('rows');
const state = document.getElementById('state');
const shown = 1000;
document.getElementById('sandbox').textContent = decodeURIComponent(base.replace(/^\/sandbox\//, ''));

function text(id, value) { document.getElementById(id).textContent = value; }

function headersText(headers) {
  return Object.entries(headers || {}).map(([k, v]) => k + ': ' + v).join('\n');
}

function flags(r) {
  const f = [];
  if (r.bodyBase64) f.push('base64');
  if (r.bodyTruncated) f.push('cut at 4 KiB of ' + r.bodySize + ' bytes');
  return f.join(', ');
}

function show(record, row) {
  for (const r of rows.querySelectorAll('tr.selected')) r.classList.remove('selected');
  row.classList.add('selected');
  document.getElementById('detail').hidden = false;
  text('detail-title', record.method + ' ' + record.path + (record.query ? '?' + record.query : '') +
       ' → ' + record.status);
  text('request-headers', headersText(record.headers));
  text('request-body', record.body);
  text('request-flags', flags(record));
  text('response-headers', headersText(record.response.headers));
  text('response-body', record.response.body);
  text('response-flags', flags(record.response));
}

// A row for `record`, at the top (live) or the bottom (the first list, newest first).
function add(record, atTop) {
  const row = document.createElement('tr');
  const cells = [new Date(record.at).toLocaleTimeString(), record.method, record.path, String(record.status),
                 String(record.durationMs)];
  cells.forEach((value, i) => {
    const td = document.createElement('td');
    td.textContent = value;
    if (i === 3 && record.status >= 400) td.className = 'error';
    row.appendChild(td);
  });
  row.addEventListener('click', () => show(record, row));
  if (atTop) rows.insertBefore(row, rows.firstChild); else rows.appendChild(row);
  while (rows.children.length > shown) rows.removeChild(rows.lastChild);
}

async function load() {
  const reply = await fetch(base + '/requests?limit=' + shown, {cache: 'no-store'});
  rows.textContent = '';
  if (reply.ok) for (const record of await reply.json()) add(record, false);
}

function follow() {
  const stream = new EventSource(base + '/requests/stream');
  stream.addEventListener('open', () => { state.textContent = 'live'; });
  stream.addEventListener('error', () => { state.textContent = 'reconnecting…'; });
  stream.addEventListener('request', (e) => add(JSON.parse(e.data), true));
  stream.addEventListener('overflow', () => { stream.close(); load().then(follow); });
}

document.getElementById('clear').addEventListener('click', async () => {
  await fetch(base + '/requests', {method: 'DELETE'});
  rows.textContent = '';
  document.getElementById('detail').hidden = true;
});

load().then(follow, (e) => { state.textContent = 'failed: ' + e; });
)JS";

response file(std::string_view body, std::string_view type) {
    response r;
    r.status = http::status::ok;
    r.body = std::string(body);
    r.content_type = std::string(type);
    r.with_header("Cache-Control", "no-cache")
        .with_header("Content-Security-Policy", content_security_policy)
        .with_header("X-Content-Type-Options", "nosniff");
    return r;
}

}  // namespace

std::optional<response> inspector_file(std::string_view path) {
    if (path == "/inspector") {
        return file(page_html, "text/html; charset=utf-8");
    }
    if (path == "/inspector/inspector.js") {
        return file(page_js, "text/javascript; charset=utf-8");
    }
    if (path == "/inspector/inspector.css") {
        return file(page_css, "text/css; charset=utf-8");
    }
    return std::nullopt;
}

}  // namespace storefront::server
