// Starts GraphiQL (4.1.2, UMD build: globals React, ReactDOM, GraphiQL) on /graphiql. A file rather than an
// inline script, so the page's Content-Security-Policy can forbid inline scripts.
'use strict';

// On /sandbox/{id}/graphiql (or /sandbox/{id}/graphql opened in a browser) queries go to that sandbox's
// endpoint; anywhere else to this origin's /graphql.
const sandbox = (window.location.pathname.match(/^\/sandbox\/([A-Za-z0-9_-]{4,64})\/graphi?ql(\/|$)/) || [])[1];
const endpoint = window.location.origin + (sandbox ? '/sandbox/' + sandbox : '') + '/graphql';

// Shown on a first visit (GraphiQL keeps the user's tabs in localStorage afterwards).
const defaultQuery = `# storefront GraphQL: the store's products, categories, users and auth (${endpoint}).
# Run with Ctrl-Enter; the Docs button lists the schema. myProfile needs the header
# {"Authorization": "Bearer <access_token from login>"} in the Headers tab.

{
  products(limit: 2, offset: 0) {
    id
    title
    price
    category {
      name
    }
  }
}
`;

window.addEventListener('load', () => {
  const root = ReactDOM.createRoot(document.getElementById('graphiql'));
  root.render(
    React.createElement(GraphiQL, {
      fetcher: GraphiQL.createFetcher({ url: endpoint }),
      defaultQuery,
      defaultEditorToolsVisibility: true,
    }),
  );
});
