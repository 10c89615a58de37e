// Starts Swagger UI on /docs with both storefront documents in the top bar's selector. A file rather than
// an inline script, so the page's Content-Security-Policy can forbid inline scripts.
'use strict';

window.addEventListener('load', () => {
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
  });
});
