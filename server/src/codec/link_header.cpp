// Builds the Link header of a paged list from the request target.
// Parameters are copied in their encoded form, so a client's own escaping survives into the links.

#include "server/codec/link_header.hpp"

#include <array>
#include <charconv>
#include <string>
#include <string_view>

namespace storefront::server {

namespace {

void append_separator(std::string& out) {
    if (out.back() != '?') {
        out += '&';
    }
}

void append_number_param(std::string& out, std::string_view name, std::size_t value) {
    append_separator(out);
    std::array<char, 24> digits{};
    const auto [end, ec] = std::to_chars(digits.data(), digits.data() + digits.size(), value);
    out.append(name).append(std::string_view(digits.data(), static_cast<std::size_t>(end - digits.data())));
}

// A parameter's name compared as decoded ("off%73et" is offset), without allocating for the common case.
bool name_is(std::string_view encoded, std::string_view name) {
    if (encoded.find('%') == std::string_view::npos) {
        return encoded == name;  // '+' never decodes into a letter of our names
    }
    return decode_component(encoded, true) == name;
}

void append_page_target(
    std::string& out, const request_target& target, std::size_t offset, std::size_t limit
) {
    out.append(target.path);
    out += '?';
    bool offset_done = false;
    bool limit_done = false;
    std::string_view rest = target.query;
    while (target.has_query) {
        const std::size_t amp = rest.find('&');
        const std::string_view item = rest.substr(0, amp);
        const std::string_view name = item.substr(0, item.find('='));
        if (name_is(name, "offset")) {
            if (!offset_done) {
                append_number_param(out, "offset=", offset);
                offset_done = true;
            }
        } else if (name_is(name, "limit")) {
            if (!limit_done) {
                append_number_param(out, "limit=", limit);
                limit_done = true;
            }
        } else if (!item.empty()) {
            append_separator(out);
            out.append(item);
        }
        if (amp == std::string_view::npos) {
            break;
        }
        rest.remove_prefix(amp + 1);
    }
    if (!offset_done) {
        append_number_param(out, "offset=", offset);
    }
    if (!limit_done) {
        append_number_param(out, "limit=", limit);
    }
}

}  // namespace

std::string page_target(const request_target& target, std::size_t offset, std::size_t limit) {
    std::string out;
    append_page_target(out, target, offset, limit);
    return out;
}

std::string link_header(const request_target& target, const core::paging_links& links, std::size_t limit) {
    std::string out;
    out.reserve(4 * (target.path.size() + target.query.size() + 40));
    const auto add = [&](std::size_t offset, std::string_view rel) {
        out += out.empty() ? "<" : ", <";
        append_page_target(out, target, offset, limit);
        out += ">; rel=\"";
        out += rel;
        out += '"';
    };
    add(links.first, "first");
    if (links.prev) {
        add(*links.prev, "prev");
    }
    if (links.next) {
        add(*links.next, "next");
    }
    add(links.last, "last");
    return out;
}

}  // namespace storefront::server
