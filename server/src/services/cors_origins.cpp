// Origins are compared as bytes: browsers serialise them in one canonical form (lower-case scheme and
// host, no default port, no trailing slash), so the configured ones are held to that form at start.

#include "server/services/cors_origins.hpp"

#include <stdexcept>

#include "core/text.hpp"

namespace storefront::server {

namespace {

bool is_host_char(char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '.' || c == '[' || c == ']' ||
           c == ':';
}

bool all_digits(std::string_view s) {
    if (s.empty() || s.size() > 5) {
        return false;
    }
    for (const char c : s) {
        if (c < '0' || c > '9') {
            return false;
        }
    }
    return true;
}

// "scheme://" of an http or https origin, or empty.
std::string_view scheme_of(std::string_view origin) {
    for (const std::string_view scheme : {std::string_view("http://"), std::string_view("https://")}) {
        if (origin.starts_with(scheme)) {
            return scheme;
        }
    }
    return {};
}

// Splits "host[:port]" after the scheme: the host (IPv6 in brackets) and the port text ("" for none).
bool split_authority(std::string_view authority, std::string_view& host, std::string_view& port) {
    std::size_t host_end = 0;
    if (authority.starts_with('[')) {
        host_end = authority.find(']');
        if (host_end == std::string_view::npos) {
            return false;
        }
        ++host_end;
    } else {
        host_end = authority.find(':');
        if (host_end == std::string_view::npos) {
            host_end = authority.size();
        }
    }
    host = authority.substr(0, host_end);
    const std::string_view rest = authority.substr(host_end);
    if (rest.empty()) {
        port = {};
        return !host.empty();
    }
    if (rest.front() != ':' || rest.size() == 1) {
        return false;
    }
    port = rest.substr(1);
    return !host.empty();
}

}  // namespace

cors_origins cors_origins::parse(std::string_view list) {
    cors_origins out;
    while (!list.empty()) {
        const auto comma = list.find(',');
        const std::string_view item = core::trim_spaces(list.substr(0, comma));
        list = comma == std::string_view::npos ? std::string_view() : list.substr(comma + 1);
        if (item.empty()) {
            continue;
        }
        const auto bad = [&] {
            return std::invalid_argument(
                "'" + std::string(item) +
                "' is not an origin (scheme://host[:port] or scheme://host:*, lower case, http or https)"
            );
        };
        const std::string_view scheme = scheme_of(item);
        if (scheme.empty()) {
            throw bad();
        }
        std::string_view host;
        std::string_view port;
        if (!split_authority(item.substr(scheme.size()), host, port)) {
            throw bad();
        }
        for (const char c : host) {
            if (!is_host_char(c)) {
                throw bad();
            }
        }
        pattern p;
        if (port == "*") {
            p.any_port = true;
            p.prefix = std::string(scheme).append(host);
        } else if (port.empty() || all_digits(port)) {
            p.prefix = std::string(item);
        } else {
            throw bad();
        }
        out.patterns_.push_back(std::move(p));
    }
    return out;
}

bool cors_origins::allows(std::string_view origin) const {
    for (const auto& p : patterns_) {
        if (!p.any_port) {
            if (origin == p.prefix) {
                return true;
            }
            continue;
        }
        if (!origin.starts_with(p.prefix)) {
            continue;
        }
        const std::string_view rest = origin.substr(p.prefix.size());
        if (rest.empty() || (rest.front() == ':' && all_digits(rest.substr(1)))) {
            return true;
        }
    }
    return false;
}

}  // namespace storefront::server
