#pragma once
// Which address the access log names as the client. Behind a load balancer the TCP peer is the proxy; the
// client is in X-Forwarded-For or Forwarded (RFC 7239), which anyone can also send. So those headers are
// believed only when the peer is a configured trusted proxy, and then only up to the right-most hop that is
// not itself a trusted proxy (hops further left were written by the client). What is logged is always an
// address this code parsed and printed again, never header bytes.

#include <array>
#include <string>
#include <string_view>
#include <vector>

// Declared only: server_config.hpp includes this header everywhere, and Asio's headers bring POSIX names
// (open, close, …) that clash with the route tables' `using enum access_rule`.
namespace boost::asio::ip {
class address;
}

namespace storefront::server {

class trusted_proxies {
  public:
    trusted_proxies() = default;  // none: every header is ignored

    // A comma-separated list of addresses and CIDR networks ("10.0.0.7, 192.168.0.0/16, fd00::/8").
    // Throws std::invalid_argument naming the first item that is neither.
    [[nodiscard]] static trusted_proxies parse(std::string_view list);

    [[nodiscard]] bool empty() const { return networks_.empty(); }
    // IPv4-mapped IPv6 addresses (::ffff:10.0.0.7, from a dual-stack listener) count as their IPv4 address.
    [[nodiscard]] bool contains(const boost::asio::ip::address& address) const;

  private:
    // Every network as IPv6 bytes and prefix; IPv4 ones as IPv4-mapped (::ffff:a.b.c.d, prefix + 96).
    struct network {
        std::array<unsigned char, 16> bytes{};
        unsigned prefix = 0;
    };
    std::vector<network> networks_;
};

// One hop as proxies write it: "192.0.2.7", "192.0.2.7:5678", "2001:db8::1", "[2001:db8::1]:443", optionally
// in double quotes (Forwarded). Mapped IPv4 addresses come back as IPv4. False for anything else
// ("unknown", obfuscated "_hidden" identifiers, garbage).
[[nodiscard]] bool parse_hop(std::string_view text, boost::asio::ip::address& out);

// The for= values of a Forwarded header, element by element, left to right ("" for an element without
// one). Split on every ',' and ';', quoted or not, so a quote a client opens cannot hide later hops.
[[nodiscard]] std::vector<std::string_view> forwarded_for_values(std::string_view forwarded);

// The client of a request from `peer`: the peer itself unless it is trusted and a header names hops; then
// the right-most hop of X-Forwarded-For (or, without it, of Forwarded) that is not trusted, or the left-most
// hop when all are. A hop that does not parse ends the walk at the last trusted address reached.
// `x_forwarded_for` and `forwarded` are the header values (several fields joined with ",").
[[nodiscard]] std::string client_address(
    const boost::asio::ip::address& peer,
    std::string_view x_forwarded_for,
    std::string_view forwarded,
    const trusted_proxies& proxies
);

}  // namespace storefront::server
