#!/usr/bin/env node
// A reference GraphQL-over-HTTP server: graphql-http's own handler (which passes all 61 of its audits) over
// the store schema of /work/shared/reference/graphql.md, with a few in-memory rows behind the fields the
// client test uses (and the few REST answers it compares them with). Not run by ctest: it exists to check tests/browser/graphql_audit.mjs and graphql_clients.mjs
// before storefront serves /graphql. It takes storefront's flags (ignored but --port) and logs the port the
// way storefront does, so both scripts start it as they start the binary:
//
//   node tests/browser/graphql_audit.mjs tests/browser/lib/reference_graphql_server.mjs
import { createServer } from 'node:http';
import { randomUUID } from 'node:crypto';
import { buildSchema, GraphQLError } from 'graphql';
import { createHandler } from 'graphql-http/lib/use/http';

export const storeSdl = `
scalar DateTime

type Product {
  id: ID!
  title: String!
  slug: String!
  price: Float!
  description: String!
  category: Category!
  images: [String!]!
  creationAt: DateTime!
  updatedAt: DateTime!
}

type Category {
  id: ID!
  name: String!
  slug: String!
  image: String!
  creationAt: DateTime!
  updatedAt: DateTime!
  products: [Product!]!
}

type User {
  id: ID!
  email: String!
  password: String!
  name: String!
  role: String!
  avatar: String!
  creationAt: DateTime!
  updatedAt: DateTime!
}

type Login {
  access_token: String!
  refresh_token: String!
}

type Query {
  products(limit: Int, offset: Int, price: Int, price_min: Int, price_max: Int, title: String, categoryId: Float, categorySlug: String): [Product!]!
  product(id: ID!): Product!
  users(limit: Float): [User!]!
  user(id: ID!): User!
  isAvailable(email: String!): Boolean!
  categories: [Category!]!
  category(id: ID!): Category!
  myProfile: User!
}

type Mutation {
  addProduct(data: CreateProductDto!): Product!
  updateProduct(id: ID!, changes: UpdateProductDto!): Product!
  deleteProduct(id: ID!): Boolean!
  addUser(data: CreateUserDto!): User!
  updateUser(id: ID!, changes: UpdateUserDto!): User!
  deleteUser(id: ID!): Boolean!
  addCategory(data: CreateCategoryDto!): Category!
  updateCategory(id: ID!, changes: UpdateCategoryDto!): Category!
  deleteCategory(id: ID!): Boolean!
  login(email: String!, password: String!): Login!
  refreshToken(refreshToken: String!): Login!
}

input CreateProductDto { title: String! price: Float! description: String! categoryId: Float! images: [String!]! }
input UpdateProductDto { title: String price: Float description: String categoryId: Float images: [String!] }
input CreateUserDto { email: String! name: String! password: String! role: Role avatar: String! }
input UpdateUserDto { email: String name: String password: String role: Role avatar: String }
input CreateCategoryDto { name: String! image: String! }
input UpdateCategoryDto { name: String image: String }

enum Role {
  admin
  customer
}
`;

const now = new Date().toISOString();
const slug = (s) => s.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');
const categories = [{ id: 1, name: 'Clothes', slug: 'clothes', image: 'https://placehold.co/600x400', creationAt: now, updatedAt: now }];
const products = ['Majestic Mountain Graphic T-Shirt', 'Classic Red Pullover Hoodie', 'Classic Heather Gray Hoodie']
  .map((title, i) => ({
    id: i + 1, title, slug: slug(title), price: 44 + i, description: title, categoryId: 1,
    images: ['https://placehold.co/600x400'], creationAt: now, updatedAt: now,
  }));
const users = [{ id: 1, email: 'john@mail.com', password: 'changeme', name: 'Jhon', role: 'customer', avatar: 'https://placehold.co/600x400', creationAt: now, updatedAt: now }];
const tokens = new Map();

const notFound = (kind, id) => new GraphQLError(`Could not find any entity of type "${kind}" matching: ${id}`,
  { extensions: { code: 'NOT_FOUND' } });
const withCategory = (p) => ({ ...p, category: () => categoryOf(categories.find((c) => c.id === p.categoryId)) });
const categoryOf = (c) => ({ ...c, products: () => products.filter((p) => p.categoryId === c.id).map(withCategory) });

const rootValue = {
  products: ({ limit, offset }) => {
    const page = limit > 0 && offset >= 0 ? products.slice(offset, offset + limit) : products;
    return page.map(withCategory);
  },
  product: ({ id }) => {
    const p = products.find((x) => String(x.id) === String(id));
    if (!p) throw notFound('Product', id);
    return withCategory(p);
  },
  categories: () => categories.map(categoryOf),
  addCategory: ({ data }) => {
    const c = { id: Math.max(0, ...categories.map((x) => x.id)) + 1, ...data, slug: slug(data.name), creationAt: now, updatedAt: now };
    categories.push(c);
    return categoryOf(c);
  },
  deleteCategory: ({ id }) => {
    const i = categories.findIndex((c) => String(c.id) === String(id));
    if (i < 0) throw notFound('Category', id);
    categories.splice(i, 1);
    return true;
  },
  login: ({ email, password }) => {
    const user = users.find((u) => u.email === email && u.password === password);
    if (!user) throw new GraphQLError('Unauthorized', { extensions: { code: 'UNAUTHENTICATED' } });
    const access = randomUUID();
    tokens.set(access, user);
    return { access_token: access, refresh_token: randomUUID() };
  },
  myProfile: (_args, context) => {
    const m = /^Bearer (.+)$/.exec(context.authorization || '');
    const user = m && tokens.get(m[1]);
    if (!user) throw new GraphQLError('Unauthorized', { extensions: { code: 'UNAUTHENTICATED' } });
    return user;
  },
};

const handler = createHandler({
  schema: buildSchema(storeSdl),
  rootValue,
  context: (req) => ({ authorization: req.headers.authorization }),
});

const portFlag = process.argv.indexOf('--port');
const port = portFlag > 0 ? Number(process.argv[portFlag + 1]) : 0;
const server = createServer((req, res) => {
  const path = req.url.split('?')[0];
  if (path === '/graphql' || /^\/sandbox\/[A-Za-z0-9_-]{4,64}\/graphql$/.test(path)) {
    return handler(req, res);
  }
  // The few REST answers graphql_clients.mjs compares with (storefront's own REST in the real run).
  const json = (status, body) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  const restProduct = (p) => ({ ...p, category: categories.find((c) => c.id === p.categoryId) });
  const bearer = () => tokens.get((/^Bearer (.+)$/.exec(req.headers.authorization || '') || [])[1]);
  let m;
  if (path === '/api/v1/products') {
    const q = new URL(req.url, 'http://x').searchParams;
    return json(200, rootValue.products({ limit: Number(q.get('limit')), offset: Number(q.get('offset')) })
      .map((p) => restProduct(products.find((x) => x.id === p.id))));
  }
  if ((m = /^\/api\/v1\/products\/(\d+)$/.exec(path)) && products[m[1] - 1]) {
    return json(200, restProduct(products[m[1] - 1]));
  }
  if ((m = /^\/api\/v1\/categories\/(\d+)$/.exec(path)) && categories.some((c) => c.id === Number(m[1]))) {
    return json(200, categories.find((c) => c.id === Number(m[1])));
  }
  if (path === '/api/v1/auth/login' && req.method === 'POST') {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      const { email, password } = JSON.parse(body);
      try { json(201, rootValue.login({ email, password })); } catch { json(401, { message: 'Unauthorized' }); }
    });
    return undefined;
  }
  if (path === '/api/v1/auth/profile') {
    return bearer() ? json(200, bearer()) : json(401, { message: 'Unauthorized' });
  }
  return json(404, { error: 'not_found' });
});
server.listen(port, '127.0.0.1', () => {
  console.log(JSON.stringify({ event: 'listening', port: server.address().port }));
});
// Keep-alive connections would hold server.close() open: stop at once.
process.on('SIGTERM', () => process.exit(0));
