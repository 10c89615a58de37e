#pragma once
// One parsed request as handlers see it: the Beast message, the normalised path and decoded query.

#include <string_view>

#include <boost/beast/http/message.hpp>
#include <boost/beast/http/string_body.hpp>

#include "core/query.hpp"

namespace storefront::server {

namespace http = boost::beast::http;
using http_request = http::request<http::string_body>;

struct request_context {
    const http_request& request;
    std::string_view path;  // without query and without a trailing slash
    core::query_params query;
};

}  // namespace storefront::server
