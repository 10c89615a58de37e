// Headless Debian Chromium (driven by playwright-core) opens storefront's /graphiql: GraphiQL 4 renders from
// this origin's files only, a query typed into its editor runs against /graphql and the result pane shows the
// products REST lists first; on /sandbox/{id}/graphiql the query goes to /sandbox/{id}/graphql. No request
// leaves 127.0.0.1, no CSP violation, console error or page error. Fails (never skips) when chromium or node
// modules are missing.
//
//   node tests/browser/graphiql_ui.mjs PATH/TO/storefront [SCREENSHOT.png]
import { writeFileSync } from 'node:fs';
import { launch } from './lib/launch.mjs';
import { startServer } from './lib/server.mjs';

const { args: [binary, screenshotPath], check, openBrowser, startWatchdog, finish } =
  await launch('graphiql_ui.mjs PATH/TO/storefront [SCREENSHOT.png]', { logPasses: true });

const query = '{ products(limit: 2, offset: 0) { id title } }';

const server = await startServer(binary, ['--storage', 'memory']);
const browser = await openBrowser();
const watchdog = startWatchdog(100000, async () => {
  await browser.close().catch(() => {});
  await server.stop();
});

// Loads `pagePath`, checks the page's own files and policy, runs the query in the editor and returns the
// result pane's text; `endpoint` is the path the query must be POSTed to.
async function runQuery(context, pagePath, endpoint, expectedTitles) {
  const page = await context.newPage();
  const requests = [];
  page.on('request', (request) => requests.push({ method: request.method(), url: request.url() }));
  const problems = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error' || /Content Security Policy/i.test(msg.text())) {
      problems.push(`console ${msg.type()}: ${msg.text()} at ${JSON.stringify(msg.location())}`);
    }
  });
  page.on('pageerror', (e) => problems.push('page error: ' + e.message));

  const answer = await page.goto(server.url + pagePath, { waitUntil: 'load' });
  check(answer.status() === 200, `${pagePath} answered ${answer.status()}`);
  const csp = answer.headers()['content-security-policy'] || '';
  check(/default-src 'none'/.test(csp) && /script-src 'self'/.test(csp) && !/unsafe-(inline|eval)/.test(csp),
    `${pagePath} has a strict Content-Security-Policy (${csp})`);

  // GraphiQL rendered: its editors are CodeMirror 5 instances.
  await page.waitForSelector('.graphiql-container .graphiql-query-editor .CodeMirror', { timeout: 30000 });
  for (const file of ['graphiql.min.js', 'graphiql.min.css', 'react.production.min.js',
    'react-dom.production.min.js', 'graphiql-init.js', 'graphiql-page.css']) {
    check(requests.some((r) => r.url === `${server.url}/graphiql/${file}`), `${pagePath} loaded /graphiql/${file}`);
  }

  // Type the query: select the editor's text and replace it through the keyboard, as a user would.
  const editor = page.locator('.graphiql-query-editor .CodeMirror').first();
  await editor.click();
  await page.keyboard.press('Control+A');
  await page.keyboard.press('Delete');
  await page.keyboard.insertText(query);
  const typed = await page.evaluate(
    () => document.querySelector('.graphiql-query-editor .CodeMirror').CodeMirror.getValue());
  check(typed.replace(/\s+/g, ' ').includes('products(limit: 2, offset: 0)'), `${pagePath}: the editor holds the query`);

  const before = requests.length;
  await page.locator('button.graphiql-execute-button').click();
  const responseText = () => page.evaluate(() => {
    const cm = document.querySelector('.graphiql-response .CodeMirror');
    return cm ? cm.CodeMirror.getValue() : '';
  });
  let text = '';
  for (let i = 0; i < 100; i++) {
    text = await responseText();
    if (expectedTitles.every((t) => text.includes(t)) || /"errors"/.test(text)) break;
    await page.waitForTimeout(100);
  }
  const sent = requests.slice(before);
  check(sent.some((r) => r.method === 'POST' && r.url === server.url + endpoint),
    `${pagePath}: the query was POSTed to ${endpoint} (sent: ${sent.map((r) => r.method + ' ' + r.url).join(', ')})`);
  let data;
  try { data = JSON.parse(text).data; } catch { data = undefined; }
  check(Array.isArray(data?.products) && data.products.length === 2,
    `${pagePath}: the result pane shows two products (${text.slice(0, 300).replace(/\s+/g, ' ')})`);
  for (const title of expectedTitles) {
    check(text.includes(title), `${pagePath}: the result pane shows "${title}"`);
  }
  check(problems.length === 0, `${pagePath}: no CSP violation, console error or page error: ${problems.join(' | ')}`);
  return page;
}

try {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const foreign = [];
  // Anything not on the instance under test is refused and reported.
  await context.route('**/*', (route) => {
    const url = route.request().url();
    if (url.startsWith(server.url + '/') || url.startsWith('data:')) {
      return route.continue();
    }
    foreign.push(url);
    return route.abort();
  });

  // The titles REST lists first: the same as the GraphQL page must show.
  const rest = await (await fetch(`${server.url}/api/v1/products?limit=2&offset=0`)).json();
  const titles = rest.map((p) => p.title);
  check(titles.length === 2, `REST lists two products (${titles.join(', ')})`);

  const page = await runQuery(context, '/graphiql', '/graphql', titles);
  if (screenshotPath) {
    writeFileSync(screenshotPath, await page.screenshot({ fullPage: false }));
  }
  await runQuery(context, '/sandbox/test-1/graphiql', '/sandbox/test-1/graphql', titles);

  // The Swagger UI page links here.
  const docs = await context.newPage();
  await docs.goto(server.url + '/docs', { waitUntil: 'load' });
  check(await docs.locator('a#graphiql-link[href="/graphiql"]').count() === 1, '/docs links to /graphiql');
  check(foreign.length === 0, 'no request to another host: ' + foreign.join(', '));
} catch (e) {
  check(false, 'exception: ' + (e.stack || e));
} finally {
  clearTimeout(watchdog);
  await browser.close().catch(() => {});
  await server.stop();
}
finish('ok: /graphiql and /sandbox/test-1/graphiql run a query against their endpoint, no other host, no CSP violation');
