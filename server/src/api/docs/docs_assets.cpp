// The embedded documentation files, indexed by name once, with media types from their extensions and
// the cache policy of each kind of file.

#include "docs_assets.hpp"

#include <algorithm>
#include <iterator>
#include <map>

#include "embedded_files.hpp"

namespace storefront::server {

namespace {

std::string_view media_type_of(std::string_view name) {
    constexpr std::pair<std::string_view, std::string_view> types[] = {
        {".json", "application/json; charset=utf-8"},
        {".html", "text/html; charset=utf-8"},
        {".js", "text/javascript; charset=utf-8"},
        {".css", "text/css; charset=utf-8"},
        {".png", "image/png"},
    };
    for (const auto& [extension, type] : types) {
        if (name.ends_with(extension)) {
            return type;
        }
    }
    return "application/octet-stream";
}

// The pages and the documents change with every build of the service, so clients revalidate them (cheap:
// 304 on a matching ETag); the vendored Swagger UI, GraphiQL and React files change only with their versions.
std::string_view cache_control_of(std::string_view name) {
    if (name.starts_with("swagger-ui") || name.starts_with("favicon") || name.ends_with(".min.js") ||
        name.ends_with(".min.css")) {
        return "public, max-age=86400";
    }
    return "no-cache";
}

std::map<std::string_view, docs_asset> index_files() {
    std::map<std::string_view, docs_asset> out;
    for (const embedded_file& file : embedded_files()) {
        out.emplace(
            file.name,
            docs_asset{
                std::make_shared<const prepared_body>(std::string(file.bytes)),
                media_type_of(file.name),
                cache_control_of(file.name)}
        );
    }
    return out;
}

}  // namespace

bool is_graphiql_file(std::string_view name) {
    constexpr std::string_view files[] = {
        "graphiql.html",
        "graphiql-init.js",
        "graphiql-page.css",
        "graphiql.min.js",
        "graphiql.min.css",
        "react.production.min.js",
        "react-dom.production.min.js",
    };
    return std::find(std::begin(files), std::end(files), name) != std::end(files);
}

const docs_asset* find_docs_asset(std::string_view name) {
    static const std::map<std::string_view, docs_asset> assets = index_files();
    const auto found = assets.find(name);
    return found == assets.end() ? nullptr : &found->second;
}

}  // namespace storefront::server
