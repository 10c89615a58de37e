#pragma once
// Answers a repeated GET again without parsing or routing it: per I/O thread, the exact bytes of a
// request's header section -> the answer routing gave them, for as long as the shared data's revision
// stands (answer_reuse in routing/route.hpp says which routes qualify, dispatch which answers). A replayed
// request still passes the rate limit and gets its metrics and access-log line; its head (Date, Connection,
// RateLimit) is written anew. Touched by its own thread only.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>

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
};

class replay_cache {
  public:
    // Bounds: entries, bytes of one request head, and bytes held (request heads and bodies owned by
    // entries; shared pre-serialised bodies are the lists' and cost nothing here). Over a bound, an entry is
    // not kept or every entry is dropped: a thread's cache refills within a few requests.
    static constexpr std::size_t max_entries = 1024;
    static constexpr std::size_t max_request_head = 2048;
    static constexpr std::size_t max_bytes = 8 * 1024 * 1024;

    // The entry for these exact header bytes while the data is at `revision`, or nullptr. Entries of an
    // older revision are all dropped at once.
    [[nodiscard]] std::shared_ptr<const replay_entry> find(
        std::string_view request_head, std::uint64_t revision
    );

    // Keeps `entry`, answered from data at revision `answered_at`, when the data is still there (`now`).
    void keep(std::shared_ptr<const replay_entry> entry, std::uint64_t answered_at, std::uint64_t now);

    [[nodiscard]] std::size_t size() const { return entries_.size(); }

  private:
    void drop_all();

    // Keys view into their entries' request_head.
    std::unordered_map<std::string_view, std::shared_ptr<const replay_entry>> entries_;
    std::uint64_t revision_ = 0;  // of every entry
    std::size_t bytes_ = 0;
};

}  // namespace storefront::server
