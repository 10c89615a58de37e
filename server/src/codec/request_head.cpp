// The request head as every request reads it: the origin-form target checked and split with a byte table,
// its parameters decoded in one pass (request_target.hpp), and the header fields every request needs, found
// in one walk over the field list in arrival order (request_fields.hpp): known fields compare by Beast's
// enum, and only an unknown name is compared as text.

#include <algorithm>
#include <array>
#include <string>

#include <boost/beast/core/string.hpp>

#include "core/text.hpp"
#include "server/codec/request_fields.hpp"
#include "server/codec/request_target.hpp"

namespace storefront::server {

namespace {

// RFC 3986: pchar = unreserved / pct-encoded / sub-delims / ":" / "@"; query = *( pchar / "/" / "?" ).
// '%' is checked separately (it must start an escape).
constexpr std::array<bool, 256> allowed_bytes = [] {
    std::array<bool, 256> table{};
    for (int c = 'a'; c <= 'z'; ++c) {
        table[c] = true;
    }
    for (int c = 'A'; c <= 'Z'; ++c) {
        table[c] = true;
    }
    for (int c = '0'; c <= '9'; ++c) {
        table[c] = true;
    }
    for (const char c : std::string_view("-._~!$&'()*+,;=:@/?")) {
        table[static_cast<unsigned char>(c)] = true;
    }
    return table;
}();

// RFC 3986 authority: host (reg-name, IPv4, or an IP literal in brackets) and port; no userinfo.
constexpr std::array<bool, 256> authority_bytes = [] {
    std::array<bool, 256> table{};
    for (int c = 0; c < 256; ++c) {
        table[c] = allowed_bytes[c] && c != '/' && c != '?' && c != '@';
    }
    table['['] = true;
    table[']'] = true;
    table['%'] = true;
    return table;
}();

// Length of a case-insensitive "http://" or "https://" prefix of `target`, or 0.
std::size_t http_scheme_length(std::string_view target) noexcept {
    for (const std::string_view scheme : {std::string_view("http://"), std::string_view("https://")}) {
        if (target.size() >= scheme.size() &&
            std::equal(scheme.begin(), scheme.end(), target.begin(), [](char expected, char got) {
                return core::ascii_lower(got) == expected;
            })) {
            return scheme.size();
        }
    }
    return 0;
}

// Keeps a field's first value in `slot`, and counts every one.
void keep_first(std::string_view& slot, std::uint32_t& count, std::string_view value) {
    if (count++ == 0) {
        slot = value;
    }
}

}  // namespace

std::string_view origin_form_of(std::string_view target) noexcept {
    const std::size_t scheme = http_scheme_length(target);
    if (scheme == 0) {
        return target;
    }
    const std::size_t path = target.find_first_of("/?", scheme);
    const std::string_view authority = target.substr(scheme, path - scheme);
    if (authority.empty() || !std::all_of(authority.begin(), authority.end(), [](char c) {
            return authority_bytes[static_cast<unsigned char>(c)];
        })) {
        return target;
    }
    if (path == std::string_view::npos) {
        return "/";
    }
    return target[path] == '/' ? target.substr(path) : target;
}

std::optional<request_target> parse_request_target(std::string_view target) noexcept {
    if (target.empty() || target.front() != '/') {
        return std::nullopt;
    }
    for (std::size_t i = 0; i < target.size(); ++i) {
        const char c = target[i];
        if (c == '%') {
            if (i + 2 >= target.size()) {
                return std::nullopt;
            }
            if (core::hex_digit_value(target[i + 1]) < 0 || core::hex_digit_value(target[i + 2]) < 0) {
                return std::nullopt;
            }
            i += 2;
        } else if (!allowed_bytes[static_cast<unsigned char>(c)]) {
            return std::nullopt;
        }
    }
    request_target out;
    const std::size_t question = target.find('?');
    out.path = target.substr(0, question);
    if (question != std::string_view::npos) {
        out.query = target.substr(question + 1);
        out.has_query = true;
    }
    return out;
}

std::string decode_component(std::string_view encoded, bool plus_as_space) {
    std::string out;
    out.reserve(encoded.size());
    const auto is_special = [plus_as_space](char c) { return c == '%' || (c == '+' && plus_as_space); };
    std::size_t i = 0;
    while (i < encoded.size()) {
        // Plain runs (most of a query) are copied whole rather than byte by byte.
        std::size_t special = i;
        while (special < encoded.size() && !is_special(encoded[special])) {
            ++special;
        }
        out.append(encoded.substr(i, special - i));
        if (special == encoded.size()) {
            break;
        }
        i = special + 1;
        if (encoded[special] == '+') {
            out.push_back(' ');
        } else if (special + 2 < encoded.size()) {
            out.push_back(static_cast<char>(
                core::hex_digit_value(encoded[special + 1]) * 16 + core::hex_digit_value(encoded[special + 2])
            ));
            i += 2;
        } else {
            out.push_back('%');  // too short to be an escape: kept as it is
        }
    }
    return out;
}

void append_query_params(const request_target& target, core::query_params& out) {
    if (!target.has_query) {
        return;
    }
    std::string_view rest = target.query;
    out.reserve(out.size() + 1 + static_cast<std::size_t>(std::count(rest.begin(), rest.end(), '&')));
    for (;;) {
        const std::size_t amp = rest.find('&');
        const std::string_view item = rest.substr(0, amp);
        const std::size_t equals = item.find('=');
        out.push_back(
            {decode_component(item.substr(0, equals), true),
             equals == std::string_view::npos ? std::string()
                                              : decode_component(item.substr(equals + 1), true)}
        );
        if (amp == std::string_view::npos) {
            break;
        }
        rest.remove_prefix(amp + 1);
    }
}

request_fields request_fields::of(const http::request_header<>& head) {
    request_fields out;
    std::uint32_t accept_encodings = 0;
    std::uint32_t if_none_matches = 0;
    for (const auto& f : head) {
        const std::string_view value = f.value();
        switch (f.name()) {
            case http::field::host:
                ++out.hosts;
                break;
            case http::field::accept_encoding:
                keep_first(out.accept_encoding, accept_encodings, value);
                break;
            case http::field::if_none_match:
                keep_first(out.if_none_match, if_none_matches, value);
                break;
            case http::field::content_length:
                keep_first(out.content_length, out.content_lengths, value);
                break;
            case http::field::transfer_encoding:
                keep_first(out.transfer_encoding, out.transfer_encodings, value);
                break;
            case http::field::expect:
                keep_first(out.expect, out.expects, value);
                break;
            case http::field::unknown:
                if (!out.has_sandbox && boost::beast::iequals(f.name_string(), "X-Sandbox")) {
                    out.has_sandbox = true;
                    out.sandbox = value;
                }
                break;
            default:
                break;
        }
    }
    return out;
}

}  // namespace storefront::server
