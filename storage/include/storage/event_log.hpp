#pragma once
// Port for the change feed's shared history (issue 43): on PostgreSQL every instance appends its data
// sets' events to one table, each data set numbered by its own counter, so a write through any instance
// reaches the subscribers of every instance with the same event ids, and a client may resume on another
// instance than the one it was connected to. Memory and SQLite serve one process: no log (the feed keeps
// its history in memory).

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "storage/storage_config.hpp"

namespace storefront::storage {

struct stored_event {
    std::uint64_t id = 0;               // 1, 2, … per data set
    std::string type;                   // "product.created"
    std::string data;                   // the resource's JSON
    std::optional<std::int64_t> owner;  // who may see it (nullopt: everyone)
    std::int64_t at_ms = 0;             // when it was published, ms since the epoch
};

class event_log {
  public:
    virtual ~event_log() = default;

    // Appends an event to `data_set`'s history ("" is the shared view) with that data set's next id, and
    // tells every instance (on_append) once it is committed. Throws storage_unavailable.
    [[nodiscard]] virtual stored_event append(
        std::string_view data_set,
        std::string_view type,
        std::string_view data,
        std::optional<std::int64_t> owner,
        std::int64_t at_ms
    ) = 0;
    // The events of `data_set` with ids after `after`, oldest first: the newest `limit` of them when there
    // are more. Throws storage_unavailable.
    [[nodiscard]] virtual std::vector<stored_event> after(
        std::string_view data_set, std::uint64_t after, std::size_t limit
    ) const = 0;
    // `heard` is called on another thread after any instance appended to a data set (its name), or with
    // nullopt when appends may have been missed (the listening connection dropped or came back).
    virtual void on_append(std::function<void(std::optional<std::string_view> data_set)> heard) = 0;
    // Forgets the events of `data_set` older than the newest `keep` (or all of them for keep == 0: a
    // sandbox removed). Throws storage_unavailable.
    virtual void trim(std::string_view data_set, std::size_t keep) = 0;
    // Forgets every data set whose name starts with `prefix` and whose newest event was published before
    // `idle_before_ms` (ms since the epoch), counter and all: data sets nothing else ever removes (the
    // inspector's records of a sandbox that never wrote) stay bounded by age. Throws storage_unavailable.
    virtual void forget_idle(std::string_view prefix, std::int64_t idle_before_ms) = 0;
};

// The log of `config`'s database when it is shared between instances (PostgreSQL), else nullptr. Throws
// like the other factories.
[[nodiscard]] std::unique_ptr<event_log> make_event_log(const storage_config& config);

}  // namespace storefront::storage
