// Three GraphQL clients apps use, against storefront's /graphql as they ship: Apollo Client 4 (HttpLink,
// InMemoryCache, which adds __typename everywhere), urql 6 (@urql/core with its defaults: queries as GET with
// variables in the URL, mutations as POST) and graphql-request 7. Each one reads the first products and
// product 1 (the same as REST lists), adds and deletes a category through variables, logs in as the seed user
// john@mail.com and reads myProfile with the bearer token (which REST's /auth/profile also takes), and gets
// extensions.code NOT_FOUND for an unknown product. Fails (never skips) without node modules.
//
//   node tests/browser/graphql_clients.mjs PATH/TO/storefront
import { startServer } from './lib/server.mjs';

const [binary] = process.argv.slice(2);
if (!binary) {
  console.error('usage: graphql_clients.mjs PATH/TO/storefront');
  process.exit(2);
}
let apollo, urql, graphqlRequest;
try {
  apollo = await import('@apollo/client');
  urql = await import('@urql/core');
  graphqlRequest = await import('graphql-request');
} catch (e) {
  console.error('FAIL: GraphQL clients missing: run npm ci in tests/browser (./deploy/quickstart.sh test does): ' + e.message);
  process.exit(1);
}

const failures = [];
const check = (ok, what) => {
  if (!ok) { failures.push(what); console.error('FAIL: ' + what); } else { console.log('ok: ' + what); }
};
const show = (v) => JSON.stringify(v)?.slice(0, 300);

const seed = { email: 'john@mail.com', password: 'changeme' };
const docs = {
  products: 'query Products { products(limit: 3, offset: 0) { id title price category { id name } } }',
  product: 'query Product { product(id: 1) { id title price category { id name } } }',
  missing: 'query Missing { product(id: 999999) { id title } }',
  addCategory: 'mutation AddCategory($data: CreateCategoryDto!) { addCategory(data: $data) { id name } }',
  deleteCategory: 'mutation DeleteCategory($id: ID!) { deleteCategory(id: $id) }',
  login: `mutation Login { login(email: "${seed.email}", password: "${seed.password}") { access_token refresh_token } }`,
  myProfile: 'query MyProfile { myProfile { id email name } }',
};

// Every client gets this fetch, so the test sees the method, Accept and Content-Type each one really sends.
const sent = [];
const recordingFetch = (client) => (input, init = {}) => {
  const headers = new Headers(init.headers || (input instanceof Request ? input.headers : undefined));
  sent.push({
    client,
    method: (init.method || (input instanceof Request ? input.method : 'GET')).toUpperCase(),
    url: String(input instanceof Request ? input.url : input),
    accept: headers.get('accept'),
    contentType: headers.get('content-type'),
  });
  return fetch(input, init);
};

// One interface over the three clients: query/mutate resolve to { data, errors } (errors as GraphQL errors).
function apolloClient(url) {
  const { ApolloClient, InMemoryCache, HttpLink, gql, CombinedGraphQLErrors } = apollo;
  const client = new ApolloClient({
    link: new HttpLink({ uri: url, fetch: recordingFetch('apollo') }),
    cache: new InMemoryCache(),
  });
  const settle = async (promise) => {
    try {
      const result = await promise;
      return { data: result.data, errors: result.error?.errors };
    } catch (e) {
      if (CombinedGraphQLErrors.is(e)) return { data: e.data, errors: e.errors };
      throw e;
    }
  };
  return {
    query: (doc, variables, headers) => settle(client.query({
      query: gql(doc), variables, fetchPolicy: 'network-only', context: { headers },
    })),
    mutate: (doc, variables, headers) => settle(client.mutate({ mutation: gql(doc), variables, context: { headers } })),
  };
}

function urqlClient(url) {
  const { Client, cacheExchange, fetchExchange, gql } = urql;
  const client = new Client({ url, exchanges: [cacheExchange, fetchExchange], fetch: recordingFetch('urql') });
  const settle = async (promise) => {
    const result = await promise;
    if (result.error && result.error.networkError) throw result.error;
    return { data: result.data, errors: result.error?.graphQLErrors };
  };
  const options = (headers) => ({ requestPolicy: 'network-only', fetchOptions: { headers: headers || {} } });
  return {
    query: (doc, variables, headers) => settle(client.query(gql(doc), variables, options(headers)).toPromise()),
    mutate: (doc, variables, headers) => settle(client.mutation(gql(doc), variables, options(headers)).toPromise()),
  };
}

function graphqlRequestClient(url) {
  const { GraphQLClient, ClientError } = graphqlRequest;
  const client = new GraphQLClient(url, { fetch: recordingFetch('graphql-request') });
  const request = async (doc, variables, headers) => {
    try {
      return { data: await client.request(doc, variables, headers), errors: undefined };
    } catch (e) {
      if (e instanceof ClientError) return { data: e.response.data, errors: e.response.errors };
      throw e;
    }
  };
  return { query: request, mutate: request };
}

// Runs the checks with one client; a transport failure (the client throws) fails that client only.
async function exercise(name, client, server, rest) {
  const at = sent.length;
  try {
    await exerciseChecks(name, client, server, rest);
  } catch (e) {
    check(false, `${name}: exception: ${e.stack || e}`);
  }
  return sent.slice(at);
}

async function exerciseChecks(name, client, server, rest) {
  const at = sent.length;
  const products = await client.query(docs.products);
  const list = products.data?.products;
  check(!products.errors && Array.isArray(list) && list.length === 3,
    `${name}: products(limit: 3, offset: 0) gives 3 products (${show(products)})`);
  if (Array.isArray(list)) {
    check(list.every((p, i) => String(p.id) === String(rest.products[i].id) && p.title === rest.products[i].title
      && p.price === rest.products[i].price && String(p.category.id) === String(rest.products[i].category.id)
      && p.category.name === rest.products[i].category.name),
    `${name}: the products, prices and categories REST lists first (${show(list)})`);
  }

  const product = await client.query(docs.product);
  check(!product.errors && String(product.data?.product?.id) === '1' && product.data.product.title === rest.product.title,
    `${name}: product(id: 1) is "${rest.product.title}" (${show(product)})`);

  const unique = `gql-${name}-${process.pid}-${Date.now()}`;
  const added = await client.mutate(docs.addCategory, { data: { name: unique, image: 'https://placehold.co/600x400' } });
  const category = added.data?.addCategory;
  check(!added.errors && category?.name === unique && category.id != null,
    `${name}: addCategory answers the new category "${unique}" (${show(added)})`);
  if (category?.id != null) {
    const listed = await (await fetch(`${server.url}/api/v1/categories/${category.id}`)).json();
    check(listed.name === unique, `${name}: REST /categories/${category.id} shows the category added through GraphQL`);
    const deleted = await client.mutate(docs.deleteCategory, { id: String(category.id) });
    check(!deleted.errors && deleted.data?.deleteCategory === true, `${name}: deleteCategory is true (${show(deleted)})`);
    const gone = await fetch(`${server.url}/api/v1/categories/${category.id}`);
    check(gone.status === 404, `${name}: the deleted category is gone from REST (${gone.status})`);
  }

  const login = await client.mutate(docs.login);
  const token = login.data?.login?.access_token;
  check(!login.errors && typeof token === 'string' && token.length > 0
    && typeof login.data.login.refresh_token === 'string', `${name}: login gives an access and a refresh token (${show(login)})`);
  const profile = await client.query(docs.myProfile, undefined, { Authorization: `Bearer ${token}` });
  check(!profile.errors && profile.data?.myProfile?.email === seed.email && String(profile.data.myProfile.id) === '1'
    && profile.data.myProfile.name === rest.profileName,
  `${name}: myProfile with the bearer token is ${seed.email} (${show(profile)})`);
  const restProfile = await fetch(`${server.url}/api/v1/auth/profile`, { headers: { Authorization: `Bearer ${token}` } });
  check(restProfile.ok && (await restProfile.json()).email === seed.email,
    `${name}: REST /auth/profile takes the token from GraphQL login (${restProfile.status})`);
  const anonymous = await client.query(docs.myProfile);
  check(anonymous.errors?.[0]?.extensions?.code === 'UNAUTHENTICATED',
    `${name}: myProfile without a token is UNAUTHENTICATED (${show(anonymous)})`);

  const missing = await client.query(docs.missing);
  check(missing.errors?.[0]?.extensions?.code === 'NOT_FOUND' && !missing.data?.product,
    `${name}: product(id: 999999) is an error with extensions.code NOT_FOUND (${show(missing)})`);

  const requests = sent.slice(at);
  check(requests.every((r) => r.url.startsWith(server.url + '/graphql')), `${name}: every request went to /graphql`);
}

const server = await startServer(binary, ['--storage', 'memory']);
const watchdog = setTimeout(async () => {
  console.error('FAIL: timed out');
  await server.stop();
  process.exit(1);
}, 100000);
try {
  const url = `${server.url}/graphql`;
  // What REST says: the GraphQL answers must be the same rows.
  const restProducts = await (await fetch(`${server.url}/api/v1/products?limit=3&offset=0`)).json();
  const restProduct = await (await fetch(`${server.url}/api/v1/products/1`)).json();
  const restLogin = await (await fetch(`${server.url}/api/v1/auth/login`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(seed),
  })).json();
  const restMe = await (await fetch(`${server.url}/api/v1/auth/profile`, {
    headers: { Authorization: `Bearer ${restLogin.access_token}` },
  })).json();
  const rest = { products: restProducts, product: restProduct, profileName: restMe.name };
  check(Array.isArray(restProducts) && restProducts.length === 3 && restMe.email === seed.email,
    'REST lists 3 products and logs john@mail.com in');

  const apolloSent = await exercise('apollo', apolloClient(url), server, rest);
  check(apolloSent.every((r) => r.method === 'POST' && /application\/graphql-response\+json/.test(r.accept || '')),
    `apollo: POSTs accepting application/graphql-response+json (${show(apolloSent.map((r) => r.method + ' ' + r.accept))})`);

  const urqlSent = await exercise('urql', urqlClient(url), server, rest);
  const urqlGets = urqlSent.filter((r) => r.method === 'GET');
  check(urqlGets.length >= 5 && urqlGets.every((r) => !r.contentType),
    `urql: queries went as GET without a content type (${urqlGets.length} GETs)`);
  check(urqlSent.filter((r) => r.method === 'POST').length === 3, 'urql: the three mutations went as POST');

  const grSent = await exercise('graphql-request', graphqlRequestClient(url), server, rest);
  check(grSent.every((r) => r.method === 'POST'), 'graphql-request: POSTs');
} catch (e) {
  check(false, 'exception: ' + (e.stack || e));
} finally {
  clearTimeout(watchdog);
  await server.stop();
}
if (failures.length) {
  console.error(`${failures.length} check(s) failed`);
  process.exit(1);
}
console.log('ok: Apollo Client 4, urql 6 and graphql-request 7 query, mutate, log in and read myProfile against /graphql');
