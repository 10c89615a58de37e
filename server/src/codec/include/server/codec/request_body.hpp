#pragma once
// Decodes a request body into named fields: application/json objects and application/x-www-form-urlencoded
// forms. Anything else, malformed JSON or a duplicated form field becomes a ready 4xx response.

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <variant>

#include <boost/json/value.hpp>
#include <boost/system/result.hpp>

#include "core/input.hpp"
#include "core/query.hpp"
#include "server/codec/response.hpp"

namespace storefront::server {

struct body_field {
    std::string text;  // the string value, or the JSON text of a non-string value
    bool is_string = true;
};

class body_fields {
  public:
    // The field if present (any JSON type), else nullptr.
    [[nodiscard]] const body_field* find(std::string_view name) const;
    // The value if present and a string, else nullopt.
    [[nodiscard]] std::optional<std::string_view> string(std::string_view name) const;

    void set(std::string name, body_field field) {
        fields_.insert_or_assign(std::move(name), std::move(field));
    }
    [[nodiscard]] bool contains(std::string_view name) const { return fields_.find(name) != fields_.end(); }

  private:
    std::map<std::string, body_field, std::less<>> fields_;
};

// The one JSON parse of request bodies (both surfaces): nesting limited to 16 levels; the parser's error
// otherwise (the callers answer it in their surface's style).
[[nodiscard]] boost::system::result<boost::json::value> parse_json_body(std::string_view body);

// `content_type` is the raw header value (empty when absent). An empty body with no content type gives no
// fields, so handlers report missing fields instead of a media-type error.
// Errors: 415 for another media type, 400 for malformed JSON, a non-object JSON body or repeated form fields.
[[nodiscard]] or_response<body_fields> decode_body(std::string_view content_type, std::string_view body);

// The same media types and errors, decoded for core's rules (core/input.hpp): JSON members keep their
// type (arrays one level deep), form fields are text, and a form field given several times (also as
// `name[]`) is an array.
[[nodiscard]] or_response<core::input_fields> decode_input(
    std::string_view content_type, std::string_view body
);

// The members of a JSON object as decode_input gives those of a body (for nested objects such as a
// checkout's shippingAddress or a payment's card).
[[nodiscard]] core::input_fields input_fields_of(const boost::json::object& object);

// Whether `c` may not appear raw in a URI (RFC 3986): anything but unreserved, sub-delims, ':', '@', '/',
// '?' and '%' ('%' stays, so a bad escape is still refused by the parser).
[[nodiscard]] bool needs_uri_escape(char c) noexcept;

// `text` with every such byte percent-encoded, as a browser sends it: `[`, `|`, `{`, raw UTF-8, …
[[nodiscard]] std::string escape_raw_uri_bytes(std::string_view text);

// The decoded name/value pairs of an application/x-www-form-urlencoded body, in order ('+' is a space);
// nullopt when it is not a valid query string. Use this rather than Boost.URL's parse_query(), which in
// 1.81 measures its input with strlen (found by fuzzing).
[[nodiscard]] std::optional<core::query_params> parse_form(std::string_view body);

// The media type of a Content-Type value or an Accept range, lower-cased, without parameters or surrounding
// spaces.
[[nodiscard]] std::string media_type_of(std::string_view content_type);

// The token of an "Authorization: Bearer <token>" header value (scheme case-insensitive), or empty.
[[nodiscard]] std::string_view bearer_token(std::string_view authorization);

// Standard messages for required string fields, class-validator style.
[[nodiscard]] std::string missing_field_message(std::string_view name);  // "<name> should not be empty"
[[nodiscard]] std::string not_string_message(std::string_view name);     // "<name> must be a string"

}  // namespace storefront::server
