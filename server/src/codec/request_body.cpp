// Request body decoding for POST endpoints: JSON objects and url-encoded forms into flat named fields.

#include "server/codec/request_body.hpp"

#include <algorithm>
#include <cctype>

#include <boost/algorithm/string/predicate.hpp>
#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <boost/json/value.hpp>
#include <boost/url/parse.hpp>

#include "server/routing/error_responses.hpp"

namespace storefront::server {

namespace {

or_response<body_fields> decode_json(std::string_view body) {
    boost::json::parse_options options;
    options.max_depth = 16;
    boost::system::error_code ec;
    boost::json::value doc = boost::json::parse(body, ec, {}, options);
    if (ec) {
        return http_error(http::status::bad_request, "Malformed JSON body: " + ec.message());
    }
    if (!doc.is_object()) {
        return http_error(http::status::bad_request, "Request body must be a JSON object");
    }
    body_fields fields;
    for (const auto& member : doc.as_object()) {
        if (member.value().is_string()) {
            const auto& s = member.value().get_string();
            fields.set(std::string(member.key()), {std::string(s.data(), s.size()), true});
        } else {
            fields.set(std::string(member.key()), {boost::json::serialize(member.value()), false});
        }
    }
    return fields;
}

or_response<body_fields> decode_form(std::string_view body) {
    const auto params = parse_form(body);
    if (!params) {
        return http_error(http::status::bad_request, "Malformed form body");
    }
    body_fields fields;
    for (const auto& param : *params) {
        if (param.name.empty()) {
            continue;
        }
        if (fields.contains(param.name)) {
            return http_error(http::status::bad_request, param.name + " must be given at most once");
        }
        fields.set(param.name, {param.value, true});
    }
    return fields;
}

}  // namespace

const body_field* body_fields::find(std::string_view name) const {
    const auto it = fields_.find(name);
    return it == fields_.end() ? nullptr : &it->second;
}

std::optional<std::string_view> body_fields::string(std::string_view name) const {
    const body_field* f = find(name);
    if (f == nullptr || !f->is_string) {
        return std::nullopt;
    }
    return std::string_view(f->text);
}

or_response<body_fields> decode_body(std::string_view content_type, std::string_view body) {
    const std::string media_type = media_type_of(content_type);
    if (media_type.empty() && body.empty()) {
        return body_fields{};
    }
    if (media_type == "application/json") {
        return decode_json(body);
    }
    if (media_type == "application/x-www-form-urlencoded") {
        return decode_form(body);
    }
    return http_error(
        http::status::unsupported_media_type,
        "Unsupported Media Type: send application/json or application/x-www-form-urlencoded"
    );
}

std::string media_type_of(std::string_view content_type) {
    const auto semicolon = content_type.find(';');
    std::string_view type = content_type.substr(0, semicolon);
    while (!type.empty() && (type.front() == ' ' || type.front() == '\t')) {
        type.remove_prefix(1);
    }
    while (!type.empty() && (type.back() == ' ' || type.back() == '\t')) {
        type.remove_suffix(1);
    }
    std::string lowered(type);
    std::transform(lowered.begin(), lowered.end(), lowered.begin(), [](unsigned char c) {
        return static_cast<char>(std::tolower(c));
    });
    return lowered;
}

std::string_view bearer_token(std::string_view authorization) {
    constexpr std::string_view scheme = "bearer ";
    if (authorization.size() <= scheme.size() ||
        !boost::algorithm::iequals(authorization.substr(0, scheme.size()), scheme)) {
        return {};
    }
    std::string_view token = authorization.substr(scheme.size());
    while (!token.empty() && token.front() == ' ') {
        token.remove_prefix(1);
    }
    return token;
}

std::optional<core::query_params> parse_form(std::string_view body) {
    // Parsed as the query of an origin-form target, which Boost.URL measures correctly.
    const std::string target = "/?" + std::string(body);
    const auto url = boost::urls::parse_origin_form(target);
    if (!url) {
        return std::nullopt;
    }
    boost::urls::encoding_opts options;
    options.space_as_plus = true;  // HTML forms encode spaces as '+'
    core::query_params params;
    for (const auto param : url->params(options)) {
        params.push_back({param.key, param.value});
    }
    return params;
}

std::string missing_field_message(std::string_view name) {
    return std::string(name) + " should not be empty";
}

std::string not_string_message(std::string_view name) {
    return std::string(name) + " must be a string";
}

}  // namespace storefront::server
