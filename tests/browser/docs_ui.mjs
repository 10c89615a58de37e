// Headless Debian Chromium (driven by playwright-core) opens storefront's /docs: both documents' operations
// are listed, a login through "Try it out" gives a token that "Authorize" takes, a GET /auth/profile through
// "Try it out" then answers 200 with john@mail.com, and the shop's add to cart → checkout → pay answer 201,
// 201, 201 in "Try it out" (the order then paid); on /sandbox/{id}/docs "Try it out" calls that sandbox; no request leaves 127.0.0.1, no CSP violation is
// reported, and the screenshot is not blank. Fails (never skips) when chromium or node modules are missing.
//
//   node tests/browser/docs_ui.mjs PATH/TO/storefront SCREENSHOT.png
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { launch } from './lib/launch.mjs';
import { startServer } from './lib/server.mjs';

const { args: [binary, screenshotPath], check, openBrowser, startWatchdog, finish } =
  await launch('docs_ui.mjs PATH/TO/storefront SCREENSHOT.png', { required: 2 });

// The embedded default storage (SQLite), in a file of this run: not the working directory's storefront.db,
// which ctest's working directory (the source tree) would keep between runs.
const dataDir = mkdtempSync(join(tmpdir(), 'storefront-docs-ui-'));
const server = await startServer(binary, ['--storage', `sqlite:${join(dataDir, 'storefront.db')}`]);
const browser = await openBrowser();
const watchdog = startWatchdog(100000, async () => {
  await browser.close().catch(() => {});
  await server.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

try {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
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
  const requested = [];
  page.on('request', (request) => requested.push(request.url()));
  const cspViolations = [];
  page.on('console', (msg) => {
    if (/Content Security Policy/i.test(msg.text())) cspViolations.push(msg.text() + ' at ' + JSON.stringify(msg.location()));
  });
  page.on('pageerror', (e) => cspViolations.push('page error: ' + e.message));

  const documents = {};
  for (const v of ['v1', 'v3']) {
    documents[v] = await (await fetch(`${server.url}/api/${v}/openapi.json`)).json();
  }
  // A path item's operations are its HTTP method keys (not `parameters`, `servers` or `summary`).
  const methods = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);
  const operationCount = (doc) => Object.values(doc.paths)
    .reduce((n, item) => n + Object.keys(item).filter((k) => methods.has(k)).length, 0);

  await page.goto(server.url + '/docs', { waitUntil: 'load' });
  // The store document comes first: all its operations are listed.
  await page.waitForSelector('#operations-auth-login', { timeout: 30000 });
  const v1Shown = await page.locator('.opblock').count();
  check(v1Shown === operationCount(documents.v1), `/api/v1 operations listed: ${v1Shown} of ${operationCount(documents.v1)}`);

  // Try it out: log in with the seed user (the example body is john@mail.com / changeme).
  const login = page.locator('#operations-auth-login');
  await login.locator('.opblock-summary').click();
  await login.locator('button.try-out__btn').click();
  const bodyText = await login.locator('textarea.body-param__text').inputValue();
  check(bodyText.includes('john@mail.com') && bodyText.includes('changeme'), 'login example body is the seed user');
  await login.locator('button.execute').click();
  const loginStatus = login.locator('.live-responses-table tbody .response-col_status').first();
  await loginStatus.waitFor({ timeout: 20000 });
  const loginCode = (await loginStatus.innerText()).trim();
  check(loginCode === '201', `login answered ${loginCode} in Try it out, expected 201`);
  const loginBody = await login.locator('.live-responses-table .response-col_description pre').first().innerText();
  const token = JSON.parse(loginBody).access_token;
  check(typeof token === 'string' && token.split('.').length === 3, 'login answer holds a JWT access_token');

  // Authorize with the bearer token, then the protected GET through Try it out.
  await page.locator('.auth-wrapper button.authorize').click();
  const dialog = page.locator('.dialog-ux');
  await dialog.locator('input[type=text], input[type=password]').first().fill(token);
  await dialog.locator('button.authorize').first().click();
  await dialog.locator('button.btn-done').first().click();  // one per scheme: bearerAuth, cookieAuth
  const profile = page.locator('#operations-auth-getProfile');
  await profile.locator('.opblock-summary').click();
  await profile.locator('button.try-out__btn').click();
  await profile.locator('button.execute').click();
  const profileStatus = profile.locator('.live-responses-table tbody .response-col_status').first();
  await profileStatus.waitFor({ timeout: 20000 });
  const profileCode = (await profileStatus.innerText()).trim();
  check(profileCode === '200', `GET /auth/profile answered ${profileCode} in Try it out, expected 200`);
  const profileBody = await profile.locator('.live-responses-table .response-col_description pre').first().innerText();
  check(JSON.parse(profileBody).email === 'john@mail.com', 'the profile is john@mail.com');
  const curl = await profile.locator('.curl-command').innerText();
  check(curl.includes(server.url + '/api/v1/auth/profile'), 'Try it out called this instance (relative server URL)');

  // The shop through Try it out (issue 42), still authorized as john: add to cart → checkout → pay, typing
  // what a reader would (a product of this run, so the stock never runs out whatever the storage keeps; the
  // new order's id in the payment's path). Every other field as /docs fills it in.
  const lampTitle = `Docs Lamp ${Date.now()}`;
  const lamp = await (await fetch(`${server.url}/api/v1/products`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ title: lampTitle, price: 30, description: 'A lamp', categoryId: 2, images: ['https://placehold.co/600x400'], stock: 5 }),
  })).json();
  check(Number.isInteger(lamp.id), 'a product to buy was made');
  const tryItOut = async (operationId, { body, path = {} } = {}) => {
    const op = page.locator(`#operations-shop-${operationId}`);
    await op.locator('.opblock-summary').click();
    await op.locator('button.try-out__btn').click();
    for (const [name, value] of Object.entries(path)) {
      await op.locator(`tr[data-param-name="${name}"][data-param-in="path"] input`).fill(String(value));
    }
    if (body !== undefined) await op.locator('textarea.body-param__text').fill(body);
    await op.locator('button.execute').click();
    const status = op.locator('.live-responses-table tbody .response-col_status').first();
    await status.waitFor({ timeout: 20000 });
    const code = (await status.innerText()).trim();
    const text = await op.locator('.live-responses-table .response-col_description pre').first().innerText();
    let answer = {};
    try { answer = JSON.parse(text); } catch { /* reported by the checks below */ }
    return { code, answer };
  };
  const added = await tryItOut('addCartItem', { body: JSON.stringify({ productId: lamp.id, quantity: 1 }) });
  check(added.code === '201', `add to cart answered ${added.code} in Try it out, expected 201`);
  check(added.answer.items?.some((l) => l.productId === lamp.id), 'the cart holds the product');
  const ordered = await tryItOut('createOrder');  // the example shipping address
  check(ordered.code === '201', `checkout answered ${ordered.code} in Try it out, expected 201`);
  check(ordered.answer.status === 'pending_payment' && ordered.answer.items?.length === 1
    && ordered.answer.items[0].productId === lamp.id, 'the order is of this cart, pending payment');
  const paid = await tryItOut('createPayment', { path: { id: ordered.answer.id } });  // the example card: 4242…
  check(paid.code === '201', `payment answered ${paid.code} in Try it out, expected 201`);
  check(paid.answer.status === 'succeeded' && paid.answer.orderId === ordered.answer.id, 'the payment succeeded for that order');
  const order = await (await fetch(`${server.url}/api/v1/orders/${ordered.answer.id}`, { headers: { Authorization: 'Bearer ' + token } })).json();
  check(order.status === 'paid', `the order is ${order.status} after paying in Try it out, expected paid`);

  // The picture shows the live answer of the protected call.
  await profileStatus.scrollIntoViewIfNeeded();
  const png = await page.screenshot({ fullPage: false });
  writeFileSync(screenshotPath, png);

  // The selector's second document: the pet store's operations.
  await page.locator('.topbar select').selectOption({ index: 1 });
  await page.waitForSelector('#operations-pet-findPetsByStatus', { timeout: 30000 });
  const v3Shown = await page.locator('.opblock').count();
  check(v3Shown === operationCount(documents.v3), `/api/v3 operations listed: ${v3Shown} of ${operationCount(documents.v3)}`);

  // /sandbox/{id}/docs: Try it out runs in that sandbox (its requests carry the sandbox's prefix).
  await page.goto(server.url + '/sandbox/browser-docs/docs', { waitUntil: 'load' });
  await page.waitForSelector('#operations-auth-login', { timeout: 30000 });
  const sandboxLogin = page.locator('#operations-auth-login');
  await sandboxLogin.locator('.opblock-summary').click();
  await sandboxLogin.locator('button.try-out__btn').click();
  await sandboxLogin.locator('button.execute').click();
  const sandboxStatus = sandboxLogin.locator('.live-responses-table tbody .response-col_status').first();
  await sandboxStatus.waitFor({ timeout: 20000 });
  const sandboxCode = (await sandboxStatus.innerText()).trim();
  check(sandboxCode === '201', `login in a sandbox's /docs answered ${sandboxCode}, expected 201`);
  check(requested.some((url) => url.startsWith(server.url + '/sandbox/browser-docs/api/v1/auth/login')),
    'Try it out on /sandbox/browser-docs/docs called /sandbox/browser-docs/api/v1/auth/login');

  // Not blank: decode the screenshot in a blank page and count distinct colours and dark pixels.
  const blank = await context.newPage();
  const stats = await blank.evaluate(async (b64) => {
    const img = new Image();
    img.src = 'data:image/png;base64,' + b64;
    await img.decode();
    const canvas = document.createElement('canvas');
    canvas.width = img.width; canvas.height = img.height;
    const g = canvas.getContext('2d');
    g.drawImage(img, 0, 0);
    const px = g.getImageData(0, 0, img.width, img.height).data;
    const colours = new Set();
    let dark = 0;
    for (let i = 0; i < px.length; i += 4) {
      colours.add((px[i] << 16) | (px[i + 1] << 8) | px[i + 2]);
      if (px[i] + px[i + 1] + px[i + 2] < 200) dark++;
    }
    return { width: img.width, height: img.height, colours: colours.size, dark };
  }, png.toString('base64'));
  check(stats.width === 1280 && stats.height === 900, `screenshot size ${stats.width}x${stats.height}`);
  check(stats.colours > 50 && stats.dark > 2000, `screenshot not blank (${stats.colours} colours, ${stats.dark} dark pixels)`);
  check(foreign.length === 0, 'requests to other hosts: ' + foreign.join(', '));
  check(cspViolations.length === 0, 'CSP violations or page errors: ' + cspViolations.join(' | '));
  console.log(`screenshot ${screenshotPath}: ${png.length} bytes, ${stats.colours} colours; `
    + `operations listed: ${v1Shown} + ${v3Shown}`);
} catch (e) {
  check(false, 'exception: ' + (e.stack || e));
} finally {
  clearTimeout(watchdog);
  await browser.close().catch(() => {});
  await server.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
finish('ok: /docs lists both documents, login + profile and add to cart + checkout + pay through Try it out, a sandbox\'s /docs calls the sandbox, no other host, no CSP violation');
