#pragma once
// The front door: what is decided about a request before it is routed. Its client (the peer, or whom a
// trusted proxy names), the rate limit, applied once to every request on its head alone (a client over its
// limit costs no routing, no access check, no body), and the replay shortcut: a GET whose header bytes this
// thread answered before, on data that has not changed since, is answered again without being parsed.

#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "request_accounting.hpp"
#include "server/ops/server_config.hpp"
#include "server/routing/dispatch.hpp"
#include "server/transport/http_server.hpp"
#include "worker.hpp"

namespace storefront::server {

// The front door's word on one request.
struct door_verdict {
    std::string client;               // whom the rate limit, login brake and access log count it against
    std::string rate_headers;         // this request's RateLimit-Policy and RateLimit lines
    std::optional<response> refused;  // the 429 to send instead of an answer
};

class front_door {
  public:
    front_door(
        worker& owner,
        const listener_services& services,
        const server_config& config,
        const boost::asio::ip::address& peer,
        std::string_view peer_text
    );

    // The kept answer to a header section of these exact bytes, or nullptr. A GET that misses has its
    // header bytes remembered, so that keep() can keep its answer for the next one.
    [[nodiscard]] std::shared_ptr<const replay_entry> replayed(std::string_view header);

    // The verdict on a replayed request (its 429 carries the kept answer's CORS fields) and on a parsed one.
    [[nodiscard]] door_verdict admit(const replay_entry& entry);
    [[nodiscard]] door_verdict admit(const http::request_header<>& head);

    // Keeps `handled`, the answer to the GET whose header bytes replayed() remembered, for the requests
    // that repeat those bytes while the data stays at the revision it was answered from.
    void keep(const http_request& request, const request_outcome& handled);

  private:
    door_verdict rate_limited(std::string_view target, std::string client) const;

    worker& owner_;
    const listener_services& services_;
    const server_config& config_;
    const boost::asio::ip::address& peer_;
    std::string_view peer_text_;
    std::string replay_key_;  // the current GET's header section, when its answer may be kept
};

// What accounting reads of a replayed request.
[[nodiscard]] request_facts facts_of(const replay_entry& entry);

}  // namespace storefront::server
