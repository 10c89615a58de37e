// Every answer of a representative set of requests (each operation of both surfaces, its success and its
// usual errors) must be documented in that surface's OpenAPI document, as served by the running binary:
// the status is listed for the operation, the media type too, and a JSON body validates (ajv, JSON Schema
// 2020-12, the dialect of OpenAPI 3.1) against the documented schema. Loopback only.
//
//   node tests/browser/validate_responses.mjs PATH/TO/storefront
import { startServer } from './lib/server.mjs';

let Ajv2020, addFormats;
try {
  Ajv2020 = (await import('ajv/dist/2020.js')).default;
  addFormats = (await import('ajv-formats')).default;
} catch (e) {
  console.error('FAIL: ajv missing: run npm ci in tests/browser (./deploy/quickstart.sh test does)');
  process.exit(1);
}
const binary = process.argv[2];
if (!binary) {
  console.error('usage: validate_responses.mjs PATH/TO/storefront');
  process.exit(2);
}

// memory: each run starts from the seed (a SQLite file would keep the users an earlier run created).
const server = await startServer(binary, ['--storage', 'memory']);
const watchdog = setTimeout(async () => { console.error('FAIL: timed out'); await server.stop(); process.exit(1); }, 60000);
const failures = [];
let checked = 0;

// One validator per document; schemas are reached through the document's own $refs.
async function loadSurface(prefix) {
  const doc = await (await fetch(`${server.url}${prefix}/openapi.json`)).json();
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  for (const f of ['int32', 'int64']) ajv.addFormat(f, { type: 'number', validate: Number.isInteger });
  ajv.addFormat('binary', true);
  ajv.addSchema({ ...doc, $id: 'doc' });
  // A path with servers of its own (the inspector's, under /sandbox/{sandbox}) is matched under that server.
  const templates = Object.entries(doc.paths).map(([p, item]) => ({
    path: p,
    re: new RegExp('^' + ((item.servers ? item.servers[0].url : prefix) + p).replace(/[.]/g, '\\.')
      .replace(/\{[^}]+\}/g, '[^/]+') + '$'),
    literal: p.split('/').filter((s) => !s.startsWith('{')).length,
  }));
  // The most literal template wins, as the router's literal-first rule does.
  templates.sort((a, b) => b.literal - a.literal);
  return { doc, ajv, templates, prefix };
}
const surfaces = [await loadSurface('/api/v1'), await loadSurface('/api/v3')];

function pointer(s) { return s.replace(/~/g, '~0').replace(/\//g, '~1'); }

// With `stream`, the answer is an endless stream: its head is checked, its body not read.
async function call(method, target, { body, type, headers = {}, stream = false } = {}, expectStatus) {
  const stop = new AbortController();
  const init = { method, headers: { ...headers }, signal: stop.signal };
  if (body !== undefined) {
    init.body = body;
    if (type) init.headers['Content-Type'] = type;
  }
  const r = await fetch(server.url + target, init);
  if (stream) stop.abort();
  const bytes = stream ? Buffer.alloc(0) : Buffer.from(await r.arrayBuffer());
  const what = `${method} ${target} -> ${r.status}`;
  const fail = (m) => { failures.push(`${what}: ${m}`); console.error(`FAIL: ${what}: ${m}`); };
  checked++;
  if (expectStatus !== undefined && r.status !== expectStatus) fail(`expected ${expectStatus}`);
  const path = target.split('?')[0];
  const s = surfaces.find((x) => path.startsWith(x.prefix + '/'))
    ?? surfaces.find((x) => x.templates.some((t) => t.re.test(path)));
  const t = s && s.templates.find((x) => x.re.test(path));
  const op = t && s.doc.paths[t.path][method.toLowerCase()];
  if (!op) { fail('no documented operation'); return { status: r.status, bytes }; }
  const documented = op.responses[String(r.status)] ?? op.responses[`${String(r.status)[0]}XX`] ?? op.responses.default;
  if (!documented) { fail(`status not documented for ${op.operationId}`); return { status: r.status, bytes }; }
  const response = documented.$ref
    ? documented.$ref.split('/').slice(1).reduce((o, k) => o[k], s.doc) : documented;
  const mediaType = (r.headers.get('content-type') || '').split(';')[0].trim();
  if (!response.content) {
    if (bytes.length) fail('a body where the document has none');
    return { status: r.status, bytes };
  }
  const key = Object.keys(response.content).find((k) => k === mediaType
    || (k.endsWith('/*') && mediaType.startsWith(k.slice(0, -1))));
  if (!key) { fail(`media type ${mediaType} not documented (${Object.keys(response.content)})`); return { status: r.status, bytes }; }
  if (key === 'application/json') {
    const json = JSON.parse(bytes.toString());
    const ref = documented.$ref
      ? `doc#${documented.$ref.slice(1)}/content/application~1json/schema`
      : `doc#/paths/${pointer(t.path)}/${method.toLowerCase()}/responses/${r.status}/content/application~1json/schema`;
    const validate = s.ajv.getSchema(ref);
    if (!validate) { fail('cannot resolve ' + ref); } else if (!validate(json)) {
      fail(s.ajv.errorsText(validate.errors) + ' in ' + bytes.toString().slice(0, 200));
    }
    return { status: r.status, bytes, json };
  }
  return { status: r.status, bytes };
}

const json = (v) => ({ body: JSON.stringify(v), type: 'application/json' });
const bearer = (t) => ({ Authorization: 'Bearer ' + t });
// A 1x1 PNG, for the uploads.
const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==', 'base64');

try {
  // /api/v1: reads, with their errors.
  await call('GET', '/api/v1/products?limit=3', {}, 200);
  await call('GET', '/api/v1/products?title=hoodie&price_min=10', {}, 200);
  await call('GET', '/api/v1/products?limit=1000', {}, 400);
  await call('GET', '/api/v1/products/1', {}, 200);
  await call('GET', '/api/v1/products/abc', {}, 400);
  await call('GET', '/api/v1/products/999', {}, 404);
  await call('GET', '/api/v1/products/2/related', {}, 200);
  await call('GET', '/api/v1/products/slug/classic-red-pullover-hoodie', {}, 200);
  await call('GET', '/api/v1/products/slug/classic-red-pullover-hoodie/related', {}, 200);
  await call('GET', '/api/v1/products/slug/no-such-thing', {}, 404);
  await call('GET', '/api/v1/categories', {}, 200);
  await call('GET', '/api/v1/categories?offset=1&limit=2', {}, 200);
  await call('GET', '/api/v1/categories/1', {}, 200);
  await call('GET', '/api/v1/categories/1/products?limit=2', {}, 200);
  await call('GET', '/api/v1/categories/99/products', {}, 404);
  await call('GET', '/api/v1/categories/slug/shoes', {}, 200);
  await call('GET', '/api/v1/users?limit=2', {}, 200);
  await call('GET', '/api/v1/users/1', {}, 200);
  await call('GET', '/api/v1/locations?size=3', {}, 200);
  await call('GET', '/api/v1/locations?origin=4.6482784,-74.2726198&radius=5000&size=2', {}, 200);
  await call('GET', '/api/v1/locations?size=51', {}, 400);
  await call('GET', '/api/v1/images/products/1-1.png', {}, 200);
  await call('GET', '/api/v1/openapi.json', {}, 200);
  // Writes (open write policy), with their errors.
  const created = await call('POST', '/api/v1/products', json({ title: 'Validation Mug', price: 12.5, description: 'A mug', categoryId: 2, images: ['https://placehold.co/600x400'] }), 201);
  await call('POST', '/api/v1/products', json({ title: 'Validation Mug', price: 12.5, description: 'A mug', categoryId: 2, images: ['https://placehold.co/600x400'] }), 409);
  await call('POST', '/api/v1/products', json({ title: '', price: -1 }), 400);
  await call('POST', '/api/v1/products', { body: 'x', type: 'text/plain' }, 415);
  await call('PUT', `/api/v1/products/${created.json.id}`, json({ price: 20 }), 200);
  await call('PUT', '/api/v1/products/1', json({ price: 20 }), 403);
  await call('DELETE', `/api/v1/products/${created.json.id}`, {}, 200);
  const category = await call('POST', '/api/v1/categories', json({ name: 'Validation Toys', image: 'https://placehold.co/600x400' }), 201);
  await call('PUT', `/api/v1/categories/${category.json.id}`, json({ name: 'Validation Games' }), 200);
  await call('DELETE', `/api/v1/categories/${category.json.id}`, {}, 200);
  await call('DELETE', '/api/v1/categories/2', {}, 403);
  const user = await call('POST', '/api/v1/users', json({ name: 'Ana', email: 'ana-validation@example.com', password: 'secret123', avatar: 'https://placehold.co/200' }), 201);
  await call('POST', '/api/v1/users', json({ name: 'Ana', email: 'ana-validation@example.com', password: 'secret123', avatar: 'https://placehold.co/200' }), 409);
  await call('PUT', `/api/v1/users/${user.json.id}`, json({ name: 'Ana B' }), 200);
  await call('PUT', '/api/v1/users/1', json({ name: 'X' }), 401);
  await call('DELETE', `/api/v1/users/${user.json.id}`, {}, 200);
  await call('POST', '/api/v1/users/is-available', json({ email: 'john@mail.com' }), 200);
  const form = new FormData();
  form.append('file', new Blob([png], { type: 'image/png' }), 'dot.png');
  const upload = await call('POST', '/api/v1/files/upload', { body: form }, 201);
  await call('GET', `/api/v1/files/${upload.json.filename}`, {}, 200);
  await call('GET', '/api/v1/files/nope.png', {}, 404);
  // Auth.
  const login = await call('POST', '/api/v1/auth/login', json({ email: 'john@mail.com', password: 'changeme' }), 201);
  await call('POST', '/api/v1/auth/login', json({ email: 'john@mail.com', password: 'wrong' }), 401);
  await call('POST', '/api/v1/auth/refresh-token', json({ refreshToken: login.json.refresh_token }), 201);
  await call('POST', '/api/v1/auth/refresh-token', json({ refreshToken: 'x.y.z' }), 401);
  await call('GET', '/api/v1/auth/profile', { headers: bearer(login.json.access_token) }, 200);
  await call('GET', '/api/v1/auth/profile', {}, 401);
  // The change feed (its stream's head) and a sandbox's inspector (documented under /sandbox/{sandbox}).
  await call('GET', '/api/v1/events?types=product.*', { stream: true }, 200);
  await call('GET', '/api/v1/events?types=product.exploded', {}, 400);
  await call('GET', '/api/v1/events', { headers: { Accept: 'application/json' } }, 406);
  const inspected = await fetch(server.url + '/sandbox/validation-box/api/v1/products/1');
  if (inspected.status !== 200) { failures.push(`a sandbox's product: ${inspected.status}`); console.error('FAIL: ' + failures.at(-1)); }
  await call('GET', '/sandbox/validation-box/requests?limit=5', {}, 200);
  await call('GET', '/sandbox/validation-box/requests?limit=0', {}, 400);
  await call('GET', '/sandbox/bad!/requests', {}, 400);
  await call('GET', '/sandbox/validation-box/requests/stream', { stream: true }, 200);
  await call('GET', '/sandbox/validation-box/inspector', {}, 200);
  await call('DELETE', '/sandbox/validation-box/requests', {}, 204);
  // The shop (issue 42): the whole flow as john, with its usual errors; products of its own, so the seed's
  // stock is never what runs out.
  const shopper = bearer(login.json.access_token);
  const as = (headers, v) => ({ ...json(v), headers });
  const stocked = await call('POST', '/api/v1/products', json({ title: 'Validation Lamp', price: 30, description: 'A lamp', categoryId: 2, images: ['https://placehold.co/600x400'], stock: 10 }), 201);
  const scarce = await call('POST', '/api/v1/products', json({ title: 'Validation Vase', price: 8, description: 'A vase', categoryId: 2, images: ['https://placehold.co/600x400'], stock: 1 }), 201);
  await call('GET', '/api/v1/cart', { headers: shopper }, 200);
  await call('GET', '/api/v1/cart', {}, 401);
  await call('POST', '/api/v1/cart/items', as(shopper, { productId: stocked.json.id, quantity: 2 }), 201);
  await call('POST', '/api/v1/cart/items', as(shopper, { productId: stocked.json.id, quantity: 0 }), 400);
  await call('POST', '/api/v1/cart/items', as(shopper, { productId: 99999, quantity: 1 }), 404);
  await call('POST', '/api/v1/cart/items', as(shopper, { productId: scarce.json.id, quantity: 5 }), 409);
  await call('PATCH', `/api/v1/cart/items/${stocked.json.id}`, as(shopper, { quantity: 3 }), 200);
  await call('DELETE', '/api/v1/cart/items/99999', { headers: shopper }, 404);
  await call('POST', '/api/v1/cart/coupon', as(shopper, { code: 'NOPE' }), 422);
  await call('POST', '/api/v1/cart/coupon', as(shopper, { code: 'SAVE10' }), 200);
  await call('DELETE', '/api/v1/cart/coupon', { headers: shopper }, 200);
  const address = { name: 'Ada', line1: '1 Main St', city: 'Springfield', postalCode: '12345', country: 'US' };
  await call('POST', '/api/v1/orders', as(shopper, { shippingAddress: { ...address, country: 'USA' } }), 400);
  const keyed = { ...shopper, 'Idempotency-Key': 'validation-order-1' };
  const placed = await call('POST', '/api/v1/orders', as(keyed, { shippingAddress: address }), 201);
  await call('POST', '/api/v1/orders', as(keyed, { shippingAddress: address }), 201);  // the replay
  await call('POST', '/api/v1/orders', as(keyed, { shippingAddress: { ...address, name: 'Bob' } }), 422);
  await call('POST', '/api/v1/orders', as(shopper, { shippingAddress: address }), 409);  // the cart is empty
  const orderPath = `/api/v1/orders/${placed.json.id}`;
  await call('GET', '/api/v1/orders?limit=2&sortBy=createdAt&order=desc', { headers: shopper }, 200);
  await call('GET', orderPath, { headers: shopper }, 200);
  await call('GET', '/api/v1/orders/999999', { headers: shopper }, 404);
  const card = (number) => ({ card: { number, expMonth: 12, expYear: 2099, cvc: '123' } });
  await call('POST', `${orderPath}/payments`, as(shopper, card('4242424242424241')), 400);
  await call('POST', `${orderPath}/payments`, as(shopper, card('4000000000000002')), 402);
  const pending3ds = await call('POST', `${orderPath}/payments`, as(shopper, card('4000002500003155')), 201);
  await call('POST', `/api/v1/payments/${pending3ds.json.id}/3ds`, as(shopper, { result: 'fail' }), 402);
  await call('POST', `${orderPath}/payments`, as(shopper, card('4242424242424242')), 201);
  await call('POST', `${orderPath}/payments`, as(shopper, card('4242424242424242')), 409);
  await call('GET', `${orderPath}/payments`, { headers: shopper }, 200);
  await call('PATCH', orderPath, as(shopper, { status: 'shipped' }), 403);
  const admin = await call('POST', '/api/v1/auth/login', json({ email: 'admin@mail.com', password: 'admin123' }), 201);
  await call('PATCH', orderPath, as(bearer(admin.json.access_token), { status: 'shipped' }), 200);
  await call('POST', `${orderPath}/cancel`, { headers: shopper }, 409);  // shipped: too late
  await call('POST', '/api/v1/cart/items', as(shopper, { productId: stocked.json.id, quantity: 1 }), 201);
  const second = await call('POST', '/api/v1/orders', as(shopper, { shippingAddress: address }), 201);
  await call('POST', `/api/v1/orders/${second.json.id}/cancel`, { headers: shopper }, 200);
  await call('DELETE', '/api/v1/cart', { headers: shopper }, 200);

  // /api/v3: a token first, then every operation.
  const basic = { Authorization: 'Basic ' + Buffer.from('petstore-client:petstore-secret').toString('base64') };
  const token = await call('POST', '/api/v3/oauth/token', { body: 'grant_type=client_credentials&scope=read:pets write:pets', type: 'application/x-www-form-urlencoded', headers: basic }, 200);
  await call('POST', '/api/v3/oauth/token', { body: 'grant_type=password', type: 'application/x-www-form-urlencoded', headers: basic }, 400);
  await call('POST', '/api/v3/oauth/token', { body: 'grant_type=client_credentials', type: 'application/x-www-form-urlencoded' }, 401);
  const auth = bearer(token.json.access_token);
  await call('GET', '/api/v3/pet/findByStatus?status=available', {}, 200);
  await call('GET', '/api/v3/pet/findByStatus?status=lost', {}, 400);
  await call('GET', '/api/v3/pet/findByTags?tags=tag1', {}, 200);
  await call('GET', '/api/v3/pet/1', { headers: { api_key: 'special-key' } }, 200);
  await call('GET', '/api/v3/pet/1', {}, 401);
  await call('GET', '/api/v3/pet/999', { headers: { api_key: 'special-key' } }, 404);
  const pet = await call('POST', '/api/v3/pet', { ...json({ name: 'Validation dog', photoUrls: ['https://placehold.co/200'], status: 'available' }), headers: auth }, 200);
  await call('POST', '/api/v3/pet', { ...json({ photoUrls: [] }), headers: auth }, 400);
  await call('POST', '/api/v3/pet', json({ name: 'x', photoUrls: [] }), 401);
  await call('PUT', '/api/v3/pet', { ...json({ ...pet.json, name: 'Renamed dog' }), headers: auth }, 200);
  await call('POST', `/api/v3/pet/${pet.json.id}?name=Rex&status=sold`, { headers: auth }, 200);
  const withImage = await call('POST', `/api/v3/pet/${pet.json.id}/uploadImage`, { body: png, type: 'application/octet-stream', headers: auth }, 200);
  const imagePath = new URL(withImage.json.photoUrls.at(-1), server.url).pathname;
  await call('GET', imagePath, {}, 200);
  await call('DELETE', `/api/v3/pet/${pet.json.id}`, { headers: auth }, 200);
  await call('GET', '/api/v3/store/inventory', { headers: { api_key: 'special-key' } }, 200);
  await call('GET', '/api/v3/store/inventory', {}, 401);
  const order = await call('POST', '/api/v3/store/order', json({ petId: 1, quantity: 2, status: 'placed', complete: false }), 200);
  await call('POST', '/api/v3/store/order', json({ petId: 999, quantity: 2 }), 400);
  await call('GET', `/api/v3/store/order/${order.json.id}`, {}, 200);
  await call('GET', '/api/v3/store/order/abc', {}, 400);
  await call('DELETE', `/api/v3/store/order/${order.json.id}`, {}, 200);
  await call('GET', `/api/v3/store/order/${order.json.id}`, {}, 404);
  await call('POST', '/api/v3/user', json({ username: 'validator', firstName: 'Val', password: 'pw123' }), 200);
  await call('POST', '/api/v3/user/createWithList', json([{ username: 'validator2', password: 'pw' }]), 200);
  await call('GET', '/api/v3/user/login?username=validator&password=pw123', {}, 200);
  await call('GET', '/api/v3/user/login?username=validator&password=wrong', {}, 400);
  await call('GET', '/api/v3/user/logout', {}, 200);
  await call('GET', '/api/v3/user/validator', {}, 200);
  await call('PUT', '/api/v3/user/validator', json({ username: 'validator', lastName: 'Idator' }), 200);
  await call('DELETE', '/api/v3/user/validator', {}, 200);
  await call('GET', '/api/v3/user/validator', {}, 404);
  await call('GET', '/api/v3/openapi.json', {}, 200);
} catch (e) {
  failures.push('exception: ' + (e.stack || e));
  console.error('FAIL: exception: ' + (e.stack || e));
} finally {
  clearTimeout(watchdog);
  await server.stop();
}
if (failures.length) {
  console.error(`${failures.length} of ${checked} answers not as documented`);
  process.exit(1);
}
console.log(`ok: ${checked} answers match both OpenAPI documents`);
