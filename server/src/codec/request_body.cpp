// Request body decoding for POST endpoints: JSON objects and url-encoded forms into flat named fields.

#include "server/codec/request_body.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <string>

#include <boost/algorithm/string/predicate.hpp>
#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <boost/json/value.hpp>
#include <boost/url/parse.hpp>

#include "core/text.hpp"
#include "server/codec/response.hpp"

namespace storefront::server {

namespace {

// The body as a JSON object, or the 400 for malformed JSON or another JSON type.
or_response<boost::json::object> json_object_body(std::string_view body) {
    auto doc = parse_json_body(body);
    if (!doc) {
        return http_error(http::status::bad_request, "Malformed JSON body: " + doc.error().message());
    }
    if (!doc->is_object()) {
        return http_error(http::status::bad_request, "Request body must be a JSON object");
    }
    return std::move(doc->as_object());
}

or_response<body_fields> decode_json(std::string_view body) {
    auto object = json_object_body(body);
    if (!object) {
        return std::move(object).error();
    }
    body_fields fields;
    for (const auto& member : *object) {
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

using input_kind = core::input_value::kind;

// A JSON number as text core can parse: integral doubles without an exponent, so 1.0 reads as an integer.
std::string number_text(const boost::json::value& v) {
    if (v.is_int64()) {
        return std::to_string(v.get_int64());
    }
    if (v.is_uint64()) {
        return std::to_string(v.get_uint64());
    }
    const double d = v.get_double();
    if (std::trunc(d) == d && std::fabs(d) < 9e15) {
        return std::to_string(static_cast<long long>(d));
    }
    return boost::json::serialize(v);
}

// One JSON value; arrays keep their elements when `depth` allows, nested containers only their kind.
core::input_value to_input(const boost::json::value& v, int depth) {
    core::input_value out;
    switch (v.kind()) {
        case boost::json::kind::string:
            out.type = input_kind::string;
            out.text.assign(v.get_string().data(), v.get_string().size());
            break;
        case boost::json::kind::int64:
        case boost::json::kind::uint64:
        case boost::json::kind::double_:
            out.type = input_kind::number;
            out.text = number_text(v);
            break;
        case boost::json::kind::bool_:
            out.type = input_kind::boolean;
            out.text = v.get_bool() ? "true" : "false";
            break;
        case boost::json::kind::null:
            out.type = input_kind::null;
            break;
        case boost::json::kind::array:
            out.type = input_kind::array;
            if (depth > 0) {
                for (const auto& item : v.get_array()) {
                    out.items.push_back(to_input(item, depth - 1));
                }
            }
            break;
        case boost::json::kind::object:
            out.type = input_kind::object;
            break;
    }
    return out;
}

or_response<core::input_fields> decode_json_input(std::string_view body) {
    auto object = json_object_body(body);
    if (!object) {
        return std::move(object).error();
    }
    core::input_fields fields;
    for (const auto& member : *object) {
        fields.insert_or_assign(std::string(member.key()), to_input(member.value(), 1));
    }
    return fields;
}

or_response<core::input_fields> decode_form_input(std::string_view body) {
    const auto params = parse_form(body);
    if (!params) {
        return http_error(http::status::bad_request, "Malformed form body");
    }
    core::input_fields fields;
    for (const auto& param : *params) {
        std::string_view name = param.name;
        const bool listed = name.size() > 2 && name.substr(name.size() - 2) == "[]";
        if (listed) {
            name.remove_suffix(2);
        }
        if (name.empty()) {
            continue;
        }
        core::input_value item{input_kind::text, param.value, {}};
        const auto it = fields.find(name);
        if (it == fields.end()) {
            fields.emplace(
                std::string(name),
                listed ? core::input_value{input_kind::array, {}, {std::move(item)}} : std::move(item)
            );
        } else if (it->second.type == input_kind::array) {
            it->second.items.push_back(std::move(item));
        } else {
            core::input_value first = std::move(it->second);
            it->second = core::input_value{input_kind::array, {}, {std::move(first), std::move(item)}};
        }
    }
    return fields;
}

response unsupported_media_type() {
    return http_error(
        http::status::unsupported_media_type,
        "Unsupported Media Type: send application/json or application/x-www-form-urlencoded"
    );
}

}  // namespace

boost::system::result<boost::json::value> parse_json_body(std::string_view body) {
    boost::json::parse_options options;
    options.max_depth = 16;
    boost::system::error_code ec;
    boost::json::value doc = boost::json::parse(body, ec, {}, options);
    if (ec) {
        return ec;
    }
    return doc;
}

core::input_fields input_fields_of(const boost::json::object& object) {
    core::input_fields fields;
    for (const auto& member : object) {
        fields.insert_or_assign(std::string(member.key()), to_input(member.value(), 1));
    }
    return fields;
}

or_response<core::input_fields> decode_input(std::string_view content_type, std::string_view body) {
    const std::string media_type = media_type_of(content_type);
    if (media_type.empty() && body.empty()) {
        return core::input_fields{};
    }
    if (media_type == "application/json") {
        return decode_json_input(body);
    }
    if (media_type == "application/x-www-form-urlencoded") {
        return decode_form_input(body);
    }
    return unsupported_media_type();
}

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
    return unsupported_media_type();
}

std::string media_type_of(std::string_view content_type) {
    return core::ascii_lower(core::trim_spaces(content_type.substr(0, content_type.find(';'))));
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

bool needs_uri_escape(char c) noexcept {
    const auto byte = static_cast<unsigned char>(c);
    const bool allowed = (byte >= 'a' && byte <= 'z') || (byte >= 'A' && byte <= 'Z') ||
                         (byte >= '0' && byte <= '9') ||
                         std::string_view("-._~!$&'()*+,;=:@/?%").find(c) != std::string_view::npos;
    return !allowed || byte == 0;
}

std::string escape_raw_uri_bytes(std::string_view text) {
    constexpr std::string_view hex = "0123456789ABCDEF";
    std::string out;
    out.reserve(text.size() + 8);
    for (const char c : text) {
        if (needs_uri_escape(c)) {
            const auto byte = static_cast<unsigned char>(c);
            out += '%';
            out += hex[byte >> 4];
            out += hex[byte & 0x0F];
        } else {
            out += c;
        }
    }
    return out;
}

std::optional<core::query_params> parse_form(std::string_view body) {
    // Parsed as the query of an origin-form target, which Boost.URL measures correctly. Bytes a query may
    // not hold raw (`images[]=…` from curl, UTF-8 from scripts) are escaped first, as a browser would.
    const std::string target = "/?" + escape_raw_uri_bytes(body);
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
