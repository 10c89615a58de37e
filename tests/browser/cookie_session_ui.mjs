// Headless Debian Chromium (driven by playwright-core) uses storefront's login cookies as a browser app on
// another origin would (issue 44). The test serves two pages on 127.0.0.1 ports of its own: the app's
// origin, which storefront is started to allow (--cors-origins), and another one it does not allow. From the
// app's page: a login with credentials: "include" sets HttpOnly cookies the page cannot read, /auth/profile
// answers through the cookie, a PUT (with its preflight) changes the user's name, a logout clears the
// cookies and the profile is refused afterwards. From the other origin: a credentialed fetch cannot read the
// answer, and a form POST carrying the cookie (same site, so SameSite=Lax sends it) is refused by the CSRF
// check while the login stays. Binds 127.0.0.1 only; a watchdog bounds it; fails, never skips, without
// chromium or node modules.
//
//   node tests/browser/cookie_session_ui.mjs PATH/TO/storefront
import { createServer } from 'node:http';
import { launch } from './lib/launch.mjs';
import { startServer } from './lib/server.mjs';

const { args: [binary], check, openBrowser, startWatchdog, finish } =
  await launch('cookie_session_ui.mjs PATH/TO/storefront');

// A page server on 127.0.0.1 and a port of its own: every path answers the same small HTML page.
function servePages(title) {
  const server = createServer((req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
    res.end(`<!doctype html><html><head><title>${title}</title></head><body>${title}</body></html>`);
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve({ server, url: `http://127.0.0.1:${server.address().port}` }));
  });
}

const app = await servePages('app');
const other = await servePages('other');
let storefront;
let browser;
const cleanup = async () => {
  if (browser) await browser.close().catch(() => {});
  if (storefront) await storefront.stop();
  app.server.close();
  other.server.close();
};
const watchdog = startWatchdog(100000, cleanup);

try {
  storefront = await startServer(binary, ['--storage', 'memory', '--cors-origins', app.url]);
  const api = storefront.url + '/api/v1';
  // A user of this run's own, registered directly (not through the browser).
  const email = 'browser-cookie@example.com';
  const made = await fetch(api + '/users', {
    method: 'POST', headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ name: 'Cookie Browser', email, password: 'secret123', avatar: 'https://x.com/a.png' }),
  });
  check(made.status === 201, `register answered ${made.status}`);
  const userId = (await made.json()).id;

  browser = await openBrowser();
  const context = await browser.newContext();
  // Nothing but the three local origins.
  const foreign = [];
  await context.route('**/*', (route) => {
    const url = route.request().url();
    if ([storefront.url, app.url, other.url].some((o) => url.startsWith(o + '/'))) return route.continue();
    foreign.push(url);
    return route.abort();
  });

  const appPage = await context.newPage();
  await appPage.goto(app.url + '/', { waitUntil: 'load' });
  // Runs fetch in the page; answers {status, body} or {error} when the browser refuses to expose it.
  const call = (page, url, init) => page.evaluate(async ([u, i]) => {
    try {
      const r = await fetch(u, { credentials: 'include', ...i });
      return { status: r.status, body: await r.text() };
    } catch (e) {
      return { error: String(e) };
    }
  }, [url, init]);

  const login = await call(appPage, api + '/auth/login', {
    method: 'POST', headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ email, password: 'secret123' }),
  });
  check(login.status === 201, `login from the app's origin: ${JSON.stringify(login)}`);
  const cookies = await context.cookies(storefront.url);
  const access = cookies.find((c) => c.name === 'storefront_access');
  check(access && access.httpOnly && access.sameSite === 'Lax' && access.path === '/',
    'the access cookie is HttpOnly, SameSite=Lax, Path=/: ' + JSON.stringify(access));
  check(cookies.some((c) => c.name === 'storefront_refresh'), 'the refresh cookie is set');
  const visible = await appPage.evaluate(() => document.cookie);
  check(!visible.includes('storefront_'), `scripts cannot read the login cookies (document.cookie: "${visible}")`);

  const profile = await call(appPage, api + '/auth/profile');
  check(profile.status === 200 && profile.body.includes(email), `profile through the cookie: ${JSON.stringify(profile)}`);

  // A PUT with JSON needs a preflight, which must allow the origin with credentials.
  const renamed = await call(appPage, `${api}/users/${userId}`, {
    method: 'PUT', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ name: 'Renamed In Browser' }),
  });
  check(renamed.status === 200 && renamed.body.includes('Renamed In Browser'), `rename through the cookie: ${JSON.stringify(renamed)}`);
  const stored = await (await fetch(`${api}/users/${userId}`)).json();
  check(stored.name === 'Renamed In Browser', `the new name is stored: ${stored.name}`);

  // Another origin: the answer to a credentialed fetch is hidden from it.
  const otherPage = await context.newPage();
  await otherPage.goto(other.url + '/', { waitUntil: 'load' });
  const stolen = await call(otherPage, api + '/auth/profile');
  check(stolen.error !== undefined, `a page on a not-allowed origin cannot read the profile: ${JSON.stringify(stolen)}`);

  // A cross-origin form POST carrying the cookie: refused by the CSRF check; the login survives it.
  const formAnswer = otherPage.waitForResponse((r) => r.url() === api + '/auth/logout', { timeout: 15000 });
  await otherPage.evaluate((action) => {
    const form = document.createElement('form');
    form.method = 'POST';
    form.action = action;
    const field = document.createElement('input');
    field.name = 'x';
    field.value = '1';
    form.appendChild(field);
    document.body.appendChild(form);
    form.submit();
  }, api + '/auth/logout');
  const refused = await formAnswer;
  const refusedBody = await refused.text().catch(() => '');
  check(refused.status() === 403 && refusedBody.includes('Cross-site request refused'),
    `cross-site form POST: ${refused.status()} ${refusedBody}`);
  const still = await call(appPage, api + '/auth/profile');
  check(still.status === 200, `the login survives the refused form POST: ${JSON.stringify(still)}`);

  // Logout from the app clears both cookies; the profile is refused afterwards.
  const out = await call(appPage, api + '/auth/logout', { method: 'POST' });
  check(out.status === 200, `logout: ${JSON.stringify(out)}`);
  const left = (await context.cookies(storefront.url)).filter((c) => c.name.startsWith('storefront_'));
  check(left.length === 0, 'logout cleared the cookies: ' + JSON.stringify(left));
  const after = await call(appPage, api + '/auth/profile');
  check(after.status === 401, `profile after logout: ${JSON.stringify(after)}`);
  check(foreign.length === 0, 'requests to other hosts: ' + foreign.join(', '));
} catch (e) {
  check(false, 'exception: ' + (e.stack || e));
} finally {
  clearTimeout(watchdog);
  await cleanup();
}
finish('ok: cookie login from an allowed origin, profile, rename, logout; another origin cannot read; cross-site form POST refused');
