#pragma once
// What the replay cache (caches/scoped_replay_cache.hpp) keeps of a GET's answer, per I/O thread: the answer
// as routing finished it and what the rate limit, metrics and access log need to serve a repeat without
// parsing or routing it (answer_reuse in routing/route.hpp says which routes qualify, dispatch which
// answers). A replayed request's head (Date, Connection, RateLimit) is written anew.

#include <cstddef>
#include <string>
#include <string_view>

#include "server/caches/replay_scope.hpp"
#include "server/caches/scoped_replay_cache.hpp"
#include "server/codec/response.hpp"
#include "server/routing/route.hpp"

namespace storefront::server {

struct replay_entry {
    std::string request_head;  // the request's header section: the key
    std::string_view target;   // the request line's target, into request_head
    response reply;            // as routing finished it, without per-request headers
    const route* matched = nullptr;
    bool logged = true;
    bool keep_alive = true;  // what the request's version and Connection field ask for
    bool http10 = false;
    // The request's X-Forwarded-For and Forwarded fields joined, kept only behind trusted proxies: the
    // client a proxy names is the rate limit's and access log's client.
    std::string forwarded_for;
    std::string forwarded;
    replay_scope scope;  // the rows its answer reads: a write elsewhere keeps it
};

// What an entry holds that nothing else shares.
[[nodiscard]] inline std::size_t owned_bytes(const replay_entry& entry) {
    return entry.request_head.capacity() + entry.reply.body.capacity() +
           entry.reply.extra_headers.capacity() + entry.forwarded_for.capacity() +
           entry.forwarded.capacity() + sizeof(replay_entry);
}

using replay_cache = scoped_replay_cache_of<replay_entry>;

}  // namespace storefront::server
