// Starts Swagger UI on /docs with both storefront documents in the top bar's selector. A file rather than
// an inline script, so the page's Content-Security-Policy can forbid inline scripts.
'use strict';

// On /sandbox/{id}/docs, "Try it out" runs in that sandbox: requests to this origin's /api/v1 and /api/v3
// get the sandbox's path prefix (the documents themselves are the same everywhere).
const sandbox = (window.location.pathname.match(/^\/sandbox\/([A-Za-z0-9_-]{4,64})\/docs/) || [])[1];

function inSandbox(request) {
  if (sandbox) {
    const url = new URL(request.url, window.location.origin);
    if (url.origin === window.location.origin && /^\/api\/v[13]\//.test(url.pathname)) {
      url.pathname = '/sandbox/' + sandbox + url.pathname;
      request.url = url.toString();
    }
  }
  return request;
}

window.addEventListener('load', () => {
  // The link to GraphiQL stays in the same sandbox.
  if (sandbox) {
    document.getElementById('graphiql-link').href = '/sandbox/' + sandbox + '/graphiql';
  }
  // /docs?urls.primaryName=pet%20store%20(%2Fapi%2Fv3) (Swagger UI's own parameter) opens the second one.
  window.ui = SwaggerUIBundle({
    urls: [
      { url: '/api/v1/openapi.json', name: 'store (/api/v1)' },
      { url: '/api/v3/openapi.json', name: 'pet store (/api/v3)' },
    ],
    dom_id: '#swagger-ui',
    deepLinking: true,
    // Never ask validator.swagger.io (or any other host) about the documents.
    validatorUrl: null,
    // Keep the bearer token / API key across reloads, so "Try it out" after a login keeps working.
    persistAuthorization: true,
    displayRequestDuration: true,
    presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
    plugins: [SwaggerUIBundle.plugins.DownloadUrl],
    layout: 'StandaloneLayout',
    requestInterceptor: inSandbox,
  });
});
