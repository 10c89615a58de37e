#pragma once
// multipart/form-data bodies (RFC 7578): the boundary of a Content-Type value and the parts of a body.
// Parts are views into the body, so an upload is never copied while it is parsed.

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace storefront::core {

struct multipart_part {
    std::string name;                     // Content-Disposition's name
    std::optional<std::string> filename;  // Content-Disposition's filename, when the part is a file
    std::string content_type;             // as declared (never trusted), empty when absent
    std::string_view body;                // a view into the parsed body
};

inline constexpr std::size_t max_multipart_parts = 16;

// The boundary parameter of a "multipart/form-data; boundary=..." value (quoted or not, 1-70 characters);
// nullopt for another media type or a missing or invalid boundary.
[[nodiscard]] std::optional<std::string> multipart_boundary(std::string_view content_type);

// Every part of `body`; nullopt when it is not a well-formed multipart body with that boundary, has more
// than max_multipart_parts parts, or a part lacks a form-data Content-Disposition with a name.
[[nodiscard]] std::optional<std::vector<multipart_part>> parse_multipart(
    std::string_view body, std::string_view boundary
);

}  // namespace storefront::core
