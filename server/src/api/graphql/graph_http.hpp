#pragma once
// GraphQL over HTTP: the request parameters of a GET or POST, and the media type of the answer as Accept
// asks for it. Bad parameters become 4xx answers, rendered in the GraphQL error shape at the edge.

#include <optional>
#include <string>
#include <string_view>

#include <boost/json/object.hpp>

#include "server/codec/response.hpp"
#include "server/routing/request_context.hpp"

namespace storefront::server {

struct graph_params {
    std::string query;
    std::string operation_name;  // empty: none given
    boost::json::object variables;
};

// POST: an application/json object {query, operationName?, variables?, extensions?}. 415 for another media
// type, 400 for malformed JSON, a batch (array), or members of the wrong type.
[[nodiscard]] or_response<graph_params> post_params(const request_context& ctx);
// GET: the same from the query string (variables and extensions as JSON text).
[[nodiscard]] or_response<graph_params> get_params(const request_context& ctx);

enum class graph_media { graphql_response_json, json, html };

// The answer's media type by `accept` (the first acceptable range, q=0 skipped; none or */* is
// application/json); nullopt when it accepts none of them (406). `html` only when `html_allowed`.
[[nodiscard]] std::optional<graph_media> answer_media(std::string_view accept, bool html_allowed);

// The Content-Type of `media`.
[[nodiscard]] std::string_view content_type_of(graph_media media);

}  // namespace storefront::server
