// Documentation handlers: the OpenAPI documents, the Swagger UI and GraphiQL pages and their assets (ETag/304
// and compression from routing, computed once per file), with a Content-Security-Policy that allows only this
// origin's scripts, styles and API calls.

#include "handlers_docs.hpp"

#include "docs_assets.hpp"
#include "server/api/docs/graphiql.hpp"
#include "server/codec/http_caching.hpp"
#include "server/routing/error_responses.hpp"

namespace storefront::server {

namespace {

// What the Swagger UI page needs and nothing more: its scripts and styles from here (the initializer is
// a file, so no inline script and no 'unsafe-eval'), one inline <style> by its hash (inside Swagger UI's
// top-bar logo SVG, swagger-ui-dist 5.35.0; an upgrade that changes it fails the browser test), data:
// images (the stylesheet's SVG icons), and API calls and the OAuth token request to this origin only.
constexpr std::string_view content_security_policy =
    "default-src 'none'; script-src 'self'; "
    "style-src 'self' 'sha256-RL3ie0nH+Lzz2YNqQN83mnU0J1ot4QL7b99vMdIX99w='; img-src 'self' data:; "
    "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

// The GraphiQL page's: the same, without the inline style and with data: fonts (graphiql.min.css carries its
// fonts inline). GraphiQL 4.1.2 sets styles through the DOM only, so no 'unsafe-inline' either.
constexpr std::string_view graphiql_content_security_policy =
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src data:; "
    "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

response serve(std::string_view name, const request_context& ctx) {
    const docs_asset* asset = find_docs_asset(name);
    if (asset == nullptr) {
        return route_not_found("GET", ctx.path);
    }
    response r = cacheable_bytes(asset->bytes, asset->media_type, asset->cache_control);
    r.with_header(
        "Content-Security-Policy",
        is_graphiql_file(name) ? graphiql_content_security_policy : content_security_policy
    );
    return r;
}

}  // namespace

response graphiql_page(const request_context& ctx) {
    return serve("graphiql.html", ctx);
}

// GET /docs : the Swagger UI page (both documents, chosen in its top bar)
handler_result handle_get_docs(request_context& ctx, void*) {
    co_return serve("index.html", ctx);
}

// GET /docs/{file} : a file of the page (scripts, styles, icon)
handler_result handle_get_docs_file(request_context& ctx, void*) {
    const std::string_view file = ctx.param("file");
    // The documents have their own URLs; the page's files are the rest.
    if (file.ends_with(".json")) {
        co_return route_not_found("GET", ctx.path);
    }
    if (is_graphiql_file(file)) {
        co_return route_not_found("GET", ctx.path);
    }
    co_return serve(file, ctx);
}

// GET /graphiql : the GraphiQL page (queries /graphql, or the sandbox's on /sandbox/{id}/graphiql)
handler_result handle_get_graphiql(request_context& ctx, void*) {
    co_return graphiql_page(ctx);
}

// GET /graphiql/{file} : a file of the GraphiQL page (GraphiQL, React, the initializer and stylesheet)
handler_result handle_get_graphiql_file(request_context& ctx, void*) {
    const std::string_view file = ctx.param("file");
    if (!is_graphiql_file(file) || file == "graphiql.html") {
        co_return route_not_found("GET", ctx.path);
    }
    co_return serve(file, ctx);
}

// GET /api/v1/openapi.json : the OpenAPI 3.1 document of the store surface
handler_result handle_get_store_openapi(request_context& ctx, void*) {
    co_return serve("store-v1.json", ctx);
}

// GET /api/v3/openapi.json : the OpenAPI 3.1 document of the pet store surface
handler_result handle_get_petstore_openapi(request_context& ctx, void*) {
    co_return serve("petstore-v3.json", ctx);
}

}  // namespace storefront::server
