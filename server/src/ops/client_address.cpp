// Trusted-proxy list parsing and the client address walk over X-Forwarded-For / Forwarded hops.

#include "server/ops/client_address.hpp"

#include <algorithm>
#include <charconv>
#include <stdexcept>

#include <boost/asio/error.hpp>
#include <boost/asio/ip/address.hpp>

#include "core/text.hpp"

namespace storefront::server {

namespace ip = boost::asio::ip;

namespace {

constexpr std::size_t max_hop_length = 64;  // "[" + the longest IPv6 text + "]:65535", with room to spare

// Splits on every `separator`, quoted or not: a client could otherwise open a quote in its own part of a
// header and swallow the hops proxies append after it. (Addresses never contain ',' or ';'.)
std::vector<std::string_view> split(std::string_view text, char separator) {
    std::vector<std::string_view> out;
    for (;;) {
        const auto at = text.find(separator);
        out.push_back(text.substr(0, at));
        if (at == std::string_view::npos) {
            return out;
        }
        text.remove_prefix(at + 1);
    }
}

bool is_port(std::string_view digits) {
    unsigned port = 0;
    const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), port);
    return !digits.empty() && ec == std::errc() && end == digits.data() + digits.size() && port <= 65535;
}

ip::address unmapped(const ip::address& a) {
    if (a.is_v6() && a.to_v6().is_v4_mapped()) {
        return ip::make_address_v4(ip::v4_mapped, a.to_v6());
    }
    return a;
}

// `a` as 16 bytes, IPv4 as IPv4-mapped IPv6.
std::array<unsigned char, 16> bytes_of(const ip::address& a) {
    return a.is_v4() ? ip::make_address_v6(ip::v4_mapped, a.to_v4()).to_bytes() : a.to_v6().to_bytes();
}

// The first `bits` bits of `lhs` and `rhs` are equal.
bool same_prefix(
    const std::array<unsigned char, 16>& lhs, const std::array<unsigned char, 16>& rhs, unsigned bits
) {
    for (std::size_t i = 0; i < lhs.size() && bits > 0; ++i) {
        const unsigned take = std::min(bits, 8U);
        const auto mask = static_cast<unsigned char>(0xFF00U >> take);
        if ((lhs[i] & mask) != (rhs[i] & mask)) {
            return false;
        }
        bits -= take;
    }
    return true;
}

}  // namespace

trusted_proxies trusted_proxies::parse(std::string_view list) {
    trusted_proxies out;
    for (std::string_view item : split(list, ',')) {
        item = core::trim_spaces(item);
        if (item.empty()) {
            continue;
        }
        const std::string text(item);
        const auto slash = item.find('/');
        boost::system::error_code ec;
        const ip::address a = unmapped(ip::make_address(std::string(item.substr(0, slash)), ec));
        unsigned prefix = a.is_v4() ? 32 : 128;
        if (!ec && slash != std::string_view::npos) {
            const std::string_view digits = item.substr(slash + 1);
            const auto [end, parse_ec] =
                std::from_chars(digits.data(), digits.data() + digits.size(), prefix);
            const bool whole =
                !digits.empty() && parse_ec == std::errc() && end == digits.data() + digits.size();
            if (!whole || prefix > (a.is_v4() ? 32U : 128U)) {
                ec = boost::asio::error::invalid_argument;
            }
        }
        if (ec || (a.is_v6() && a.to_v6().scope_id() != 0)) {
            throw std::invalid_argument("not an IP address or CIDR network: " + text);
        }
        out.networks_.push_back({bytes_of(a), a.is_v4() ? prefix + 96 : prefix});
    }
    return out;
}

bool trusted_proxies::contains(const ip::address& address) const {
    const auto bytes = bytes_of(unmapped(address));
    return std::any_of(networks_.begin(), networks_.end(), [&bytes](const network& net) {
        return same_prefix(bytes, net.bytes, net.prefix);
    });
}

bool parse_hop(std::string_view text, ip::address& out) {
    text = core::trim_spaces(text);
    if (text.size() >= 2 && text.front() == '"' && text.back() == '"') {
        text = text.substr(1, text.size() - 2);
    }
    // Zone ids ("%eth0") name local interfaces, never a remote client; quotes or escapes left over are junk.
    if (text.empty() || text.size() > max_hop_length ||
        text.find_first_of("%\"\\ \t") != std::string_view::npos) {
        return false;
    }
    std::string_view host = text;
    if (text.front() == '[') {
        const auto close = text.find(']');
        if (close == std::string_view::npos) {
            return false;
        }
        host = text.substr(1, close - 1);
        const std::string_view rest = text.substr(close + 1);
        if (!rest.empty() && (rest.front() != ':' || !is_port(rest.substr(1)))) {
            return false;
        }
    } else if (std::count(text.begin(), text.end(), ':') == 1) {  // IPv4 with a port
        const auto colon = text.find(':');
        if (!is_port(text.substr(colon + 1))) {
            return false;
        }
        host = text.substr(0, colon);
    }
    boost::system::error_code ec;
    const ip::address parsed = ip::make_address(std::string(host), ec);
    if (ec) {
        return false;
    }
    out = unmapped(parsed);
    return true;
}

std::vector<std::string_view> forwarded_for_values(std::string_view forwarded) {
    std::vector<std::string_view> out;
    for (const std::string_view element : split(forwarded, ',')) {
        std::string_view value;
        for (const std::string_view pair : split(element, ';')) {
            const auto equals = pair.find('=');
            if (equals == std::string_view::npos) {
                continue;
            }
            const std::string_view key = core::trim_spaces(pair.substr(0, equals));
            if (key.size() == 3 && (key[0] | 0x20) == 'f' && (key[1] | 0x20) == 'o' &&
                (key[2] | 0x20) == 'r') {
                value = core::trim_spaces(pair.substr(equals + 1));
                break;
            }
        }
        out.push_back(value);
    }
    return out;
}

std::string client_address(
    const ip::address& peer,
    std::string_view x_forwarded_for,
    std::string_view forwarded,
    const trusted_proxies& proxies
) {
    ip::address current = unmapped(peer);
    if (!proxies.contains(current)) {
        return current.to_string();
    }
    std::vector<std::string_view> hops;
    if (!core::trim_spaces(x_forwarded_for).empty()) {
        hops = split(x_forwarded_for, ',');
    } else if (!core::trim_spaces(forwarded).empty()) {
        hops = forwarded_for_values(forwarded);
    }
    for (auto hop = hops.rbegin(); hop != hops.rend(); ++hop) {
        ip::address parsed;
        if (!parse_hop(*hop, parsed)) {
            break;
        }
        current = parsed;
        if (!proxies.contains(current)) {
            break;
        }
    }
    return current.to_string();
}

}  // namespace storefront::server
