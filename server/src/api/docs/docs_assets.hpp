#pragma once
// The embedded documentation files as ready answers: prepared bytes (ETag and compressed forms made once),
// media type and cache policy, built once on first use and never changed.

#include <memory>
#include <string_view>

#include "server/codec/representation.hpp"

namespace storefront::server {

struct docs_asset {
    std::shared_ptr<const prepared_body> bytes;  // with their ETag and compressed forms, made once
    std::string_view media_type;
    std::string_view cache_control;
};

// Whether `name` is one of the GraphiQL page's files (graphiql.html, its initializer and stylesheet, the
// vendored GraphiQL and React builds), which /graphiql serves and /docs does not.
[[nodiscard]] bool is_graphiql_file(std::string_view name);

// The asset named `name` ("swagger-ui.css", "store-v1.json"), or nullptr.
[[nodiscard]] const docs_asset* find_docs_asset(std::string_view name);

}  // namespace storefront::server
