// Live updates and the request inspector in headless Debian Chromium (driven by playwright-core; issue 43).
// The change feed: a page of the test's own origin (a front end elsewhere, as an app would be) opens an
// EventSource on /api/v1/events?types=product.* and receives the product.created of a create the test makes,
// with the product as GET shows it; a category created meanwhile is filtered out. The inspector: the page
// /sandbox/{id}/inspector lists a request the test made in that sandbox before it opened, then one made while
// it is open (live); a click on a row shows its headers and bodies, with the Authorization value redacted.
// Binds 127.0.0.1 only; a watchdog bounds it; fails, never skips, without chromium or node modules.
//
//   node tests/browser/live_ui.mjs PATH/TO/storefront
import { createServer } from 'node:http';
import { launch } from './lib/launch.mjs';
import { startServer } from './lib/server.mjs';

const { args: [binary], check, openBrowser, startWatchdog, finish } =
  await launch('live_ui.mjs PATH/TO/storefront');

// The front end's origin: every path answers the same empty page (its script comes from page.evaluate).
const app = await new Promise((resolve, reject) => {
  const server = createServer((req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
    res.end('<!doctype html><html><head><title>app</title></head><body><ul id="log"></ul></body></html>');
  });
  server.once('error', reject);
  server.listen(0, '127.0.0.1', () => resolve({ server, url: `http://127.0.0.1:${server.address().port}` }));
});
let storefront;
let browser;
const cleanup = async () => {
  if (browser) await browser.close().catch(() => {});
  if (storefront) await storefront.stop();
  app.server.close();
};
const watchdog = startWatchdog(60000, cleanup);

const json = { 'Content-Type': 'application/json' };
const product = (title) => JSON.stringify({
  title, price: 12, description: 'made by live_ui.mjs', categoryId: 1, images: ['https://placehold.co/600x400'],
});

try {
  storefront = await startServer(binary, ['--storage', 'memory', '--drain-seconds', '0']);
  browser = await openBrowser();
  const context = await browser.newContext();
  const foreign = [];
  await context.route('**/*', (route) => {
    const url = route.request().url();
    if ([storefront.url, app.url].some((o) => url.startsWith(o + '/'))) return route.continue();
    foreign.push(url);
    return route.abort();
  });

  // --- The change feed through EventSource, from another origin.
  const page = await context.newPage();
  await page.goto(app.url + '/', { waitUntil: 'load' });
  const opened = await page.evaluate((url) => new Promise((resolve) => {
    window.received = [];
    const feed = new EventSource(url);
    window.feed = feed;
    for (const type of ['product.created', 'category.created']) {
      feed.addEventListener(type, (e) => window.received.push({ type, lastEventId: e.lastEventId, data: e.data }));
    }
    feed.addEventListener('open', () => resolve('open'));
    feed.addEventListener('error', () => resolve('error, readyState ' + feed.readyState));
  }), storefront.url + '/api/v1/events?types=product.*');
  check(opened === 'open', `the EventSource opened: ${opened}`);

  // Writes by the test, not the page: a category (filtered out), then a product.
  const category = await fetch(storefront.url + '/api/v1/categories', {
    method: 'POST', headers: json, body: JSON.stringify({ name: 'Live Lamps', image: 'https://placehold.co/600x400' }),
  });
  check(category.status === 201, `category create answered ${category.status}`);
  const made = await fetch(storefront.url + '/api/v1/products', { method: 'POST', headers: json, body: product('Live Lamp') });
  check(made.status === 201, `product create answered ${made.status}`);
  const created = await made.json();
  await page.waitForFunction(() => window.received.length > 0, null, { timeout: 5000 }).catch(() => {});
  const events = await page.evaluate(() => { window.feed.close(); return window.received; });
  check(events.length === 1 && events[0].type === 'product.created',
    'exactly one event, product.created (the category is filtered out): ' + JSON.stringify(events));
  if (events.length > 0) {
    const event = JSON.parse(events[0].data);
    check(event.type === 'product.created' && event.id === events[0].lastEventId && /^\d+$/.test(event.id),
      'the event names its type and its id (the SSE id): ' + events[0].data);
    check(event.data && event.data.id === created.id && event.data.title === 'Live Lamp',
      `the event carries the product as created (id ${created.id}): ` + events[0].data);
  }

  // --- The inspector page of a sandbox.
  const sandbox = 'browser-live-' + process.pid;
  const base = `${storefront.url}/sandbox/${sandbox}`;
  const before = await fetch(base + '/api/v1/products/1', {
    headers: { Authorization: 'Bearer browser-secret-value', 'X-Trace': 'before-page' },
  });
  check(before.status === 200 || before.status === 401, `request before the page: ${before.status}`);
  const inspector = await context.newPage();
  const cspViolations = [];
  inspector.on('console', (m) => { if (/Content Security Policy/i.test(m.text())) cspViolations.push(m.text()); });
  await inspector.goto(base + '/inspector', { waitUntil: 'load' });
  await inspector.waitForFunction(() => document.getElementById('state').textContent === 'live', null, { timeout: 5000 })
    .catch(() => {});
  check(await inspector.textContent('#state') === 'live', `the page follows the stream: "${await inspector.textContent('#state')}"`);
  const rowsText = () => inspector.$$eval('#rows tr', (rows) => rows.map((r) => [...r.cells].map((c) => c.textContent)));
  const first = await rowsText();
  check(first.length === 1 && first[0][1] === 'GET' && first[0][2] === `/sandbox/${sandbox}/api/v1/products/1` &&
    first[0][3] === String(before.status), 'the list shows the request made before the page: ' + JSON.stringify(first));

  // A request made while the page is open appears at the top, live.
  const live = await fetch(base + '/api/v1/products', { method: 'POST', headers: json, body: product('Inspected Lamp') });
  check(live.status === 201, `create in the sandbox answered ${live.status}`);
  await inspector.waitForFunction(() => document.querySelectorAll('#rows tr').length === 2, null, { timeout: 5000 })
    .catch(() => {});
  const second = await rowsText();
  check(second.length === 2 && second[0][1] === 'POST' && second[0][2] === `/sandbox/${sandbox}/api/v1/products` &&
    second[0][3] === '201', 'the live request is listed first: ' + JSON.stringify(second));

  // A click shows the request's headers and bodies.
  check(await inspector.isHidden('#detail'), 'no detail before a click');
  await inspector.click('#rows tr:nth-child(1)');
  await inspector.waitForSelector('#detail', { state: 'visible', timeout: 2000 }).catch(() => {});
  const detail = async () => inspector.evaluate(() => Object.fromEntries(
    ['detail-title', 'request-headers', 'request-body', 'response-headers', 'response-body']
      .map((id) => [id, document.getElementById(id).textContent])));
  const post = await detail();
  check(post['detail-title'].startsWith(`POST /sandbox/${sandbox}/api/v1/products`) && post['detail-title'].includes('201'),
    'the detail names the request: ' + post['detail-title']);
  check(/content-type: application\/json/i.test(post['request-headers']), 'request headers shown: ' + post['request-headers']);
  check(post['request-body'].includes('"Inspected Lamp"'), 'request body shown: ' + post['request-body']);
  check(/content-type: application\/json/i.test(post['response-headers']), 'response headers shown: ' + post['response-headers']);
  check(post['response-body'].includes('"Inspected Lamp"') && post['response-body'].includes('"id"'),
    'response body shown: ' + post['response-body']);

  await inspector.click('#rows tr:nth-child(2)');
  const get = await detail();
  check(/x-trace: before-page/i.test(get['request-headers']), 'the first request\'s headers on click: ' + get['request-headers']);
  check(/authorization: \[redacted\]/i.test(get['request-headers']) && !get['request-headers'].includes('browser-secret-value'),
    'the Authorization value is redacted on the page: ' + get['request-headers']);
  check(cspViolations.length === 0, 'CSP violations: ' + cspViolations.join(' | '));
  check(foreign.length === 0, 'requests to other hosts: ' + foreign.join(', '));
} catch (e) {
  check(false, 'exception: ' + (e.stack || e));
} finally {
  clearTimeout(watchdog);
  await cleanup();
}
finish('ok: EventSource from another origin got product.created (category filtered out); the inspector page listed a request before and one live, with headers and bodies on click, Authorization redacted');
