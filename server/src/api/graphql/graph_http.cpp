// GraphQL-over-HTTP parameters and media types (the graphql-http audit's expectations): what a request
// asks, in which type the answer goes, and the request errors that come before any document is parsed.

#include "graph_http.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>

#include <boost/json/parse.hpp>

#include "core/enum_names.hpp"
#include "core/query.hpp"
#include "core/text.hpp"
#include "server/codec/error_style.hpp"
#include "server/codec/request_body.hpp"

namespace storefront::server {

namespace {

// Members shared by GET and POST: operationName a string or null, variables an object or null,
// extensions an object or null.
or_response<graph_params> read_members(
    const boost::json::value* query,
    const boost::json::value* operation_name,
    const boost::json::value* variables,
    const boost::json::value* extensions
) {
    graph_params params;
    if (query == nullptr || query->is_null()) {
        return http_error(http::status::bad_request, "Missing query");
    }
    if (!query->is_string()) {
        return http_error(http::status::bad_request, "Invalid query: it must be a string");
    }
    params.query = std::string(query->get_string());
    if (operation_name != nullptr && !operation_name->is_null()) {
        if (!operation_name->is_string()) {
            return http_error(http::status::bad_request, "Invalid operationName: it must be a string");
        }
        params.operation_name = std::string(operation_name->get_string());
    }
    if (variables != nullptr && !variables->is_null()) {
        if (!variables->is_object()) {
            return http_error(http::status::bad_request, "Invalid variables: they must be an object");
        }
        params.variables = variables->get_object();
    }
    if (extensions != nullptr && !extensions->is_null() && !extensions->is_object()) {
        return http_error(http::status::bad_request, "Invalid extensions: they must be an object");
    }
    return params;
}

// A JSON parameter of a GET (variables, extensions): nesting bounded like request bodies.
or_response<std::optional<boost::json::value>> json_parameter(
    const core::query_params& query, std::string_view name
) {
    if (core::count_of(query, name) > 1) {
        return http_error(http::status::bad_request, std::string(name) + " must be given at most once");
    }
    const auto text = core::single_value(query, name);
    if (!text) {
        return std::optional<boost::json::value>{};
    }
    boost::system::error_code ec;
    boost::json::parse_options options;
    options.max_depth = 32;
    auto value = boost::json::parse(*text, ec, {}, options);
    if (ec) {
        return http_error(http::status::bad_request, "Invalid " + std::string(name) + ": malformed JSON");
    }
    return std::optional<boost::json::value>(std::move(value));
}

// The q parameter of an Accept range (1 when absent or unreadable).
double quality_of(std::string_view range) {
    const std::string params = core::ascii_lower(range.substr(std::min(range.find(';'), range.size())));
    const auto q = params.find("q=");
    if (q == std::string::npos) {
        return 1;
    }
    double value = 1;
    const char* first = params.data() + q + 2;
    const auto [end, ec] = std::from_chars(first, params.data() + params.size(), value);
    return ec == std::errc{} && end != first ? value : 1;
}

}  // namespace

or_response<graph_params> post_params(const request_context& ctx) {
    const std::string type = media_type_of(ctx.request[http::field::content_type]);
    if (type != "application/json") {
        return http_error(
            http::status::unsupported_media_type, "POST /graphql takes application/json bodies"
        );
    }
    boost::system::error_code ec;
    boost::json::parse_options options;
    options.max_depth = 32;
    const auto body = boost::json::parse(ctx.request.body(), ec, {}, options);
    if (ec) {
        return http_error(http::status::bad_request, "Malformed JSON body: " + ec.message());
    }
    if (body.is_array()) {
        return http_error(http::status::bad_request, "Batched operations are not supported: send one object");
    }
    if (!body.is_object()) {
        return http_error(http::status::bad_request, "The body must be a JSON object");
    }
    const auto& o = body.get_object();
    return read_members(
        o.if_contains("query"),
        o.if_contains("operationName"),
        o.if_contains("variables"),
        o.if_contains("extensions")
    );
}

or_response<graph_params> get_params(const request_context& ctx) {
    for (const std::string_view name : {"query", "operationName"}) {
        if (core::count_of(ctx.query, name) > 1) {
            return http_error(http::status::bad_request, std::string(name) + " must be given at most once");
        }
    }
    auto variables = json_parameter(ctx.query, "variables");
    if (!variables) {
        return std::move(variables).error();
    }
    auto extensions = json_parameter(ctx.query, "extensions");
    if (!extensions) {
        return std::move(extensions).error();
    }
    std::optional<boost::json::value> query;
    if (const auto text = core::single_value(ctx.query, "query")) {
        query = boost::json::string(*text);
    }
    std::optional<boost::json::value> operation_name;
    if (const auto text = core::single_value(ctx.query, "operationName")) {
        operation_name = boost::json::string(*text);
    }
    const auto ptr = [](const std::optional<boost::json::value>& v) { return v ? &*v : nullptr; };
    return read_members(ptr(query), ptr(operation_name), ptr(*variables), ptr(*extensions));
}

std::optional<graph_media> answer_media(std::string_view accept, bool html_allowed) {
    if (core::trim_spaces(accept).empty()) {
        return graph_media::json;
    }
    std::size_t start = 0;
    while (start <= accept.size()) {
        const auto end = std::min(accept.find(',', start), accept.size());
        const std::string_view range = accept.substr(start, end - start);
        start = end + 1;
        const std::string type = media_type_of(range);
        if (quality_of(range) <= 0) {
            continue;  // q=0: "not this one"
        }
        if (type == "application/graphql-response+json") {
            return graph_media::graphql_response_json;
        }
        if (type == "application/json" || type == "application/*" || type == "*/*") {
            return graph_media::json;
        }
        if (html_allowed && type == "text/html") {
            return graph_media::html;
        }
    }
    return std::nullopt;
}

// The Content-Type of each media type.
constexpr core::enum_name<graph_media> media_types[] = {
    {graph_media::graphql_response_json, "application/graphql-response+json; charset=utf-8"},
    {graph_media::json, "application/json; charset=utf-8"},
    {graph_media::html, "text/html; charset=utf-8"},
};

std::string_view content_type_of(graph_media media) {
    return core::name_of_each<graph_media::html>(media_types, media, "application/json; charset=utf-8");
}

}  // namespace storefront::server
