#pragma once
// Port for the registry of sandboxes that hold data (issue 20): a sandbox is a private copy of the whole
// store named by a client-chosen id. A sandbox that was never written has no row here and reads the seed;
// its first write registers it (create), and its data then lives in stores of its own, built by the
// factory from config_for(id): memory stores kept by the caller, a file of its own for SQLite
// (`<path>.sandboxes/<id>.sqlite`), a schema of its own for PostgreSQL (shared by every instance).
// Adapters are safe to call from several threads at once. Blocking: callers use the offload pool.

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/errc.hpp"
#include "storage/storage_config.hpp"

namespace storefront::storage {

struct sandbox_record {
    std::string id;
    // Changes each time the id is created again after a remove (PostgreSQL: a sequence; SQLite: the file's
    // inode and birth; memory: a counter), so a cache of its stores can tell a new life from the old one.
    std::int64_t generation = 0;
    std::chrono::system_clock::time_point last_used;
};

class sandbox_store {
  public:
    virtual ~sandbox_store() = default;

    // The record of `id`; nullopt when it holds no data (never written, removed or purged).
    [[nodiscard]] virtual core::result<std::optional<sandbox_record>> find(std::string_view id) = 0;

    // Registers `id` (used at `now`) unless it is registered already, and answers its record.
    // errc::storage_full when `max_live` sandboxes are registered already and `id` is not one of them.
    [[nodiscard]] virtual core::result<sandbox_record> create(
        std::string_view id, std::size_t max_live, std::chrono::system_clock::time_point now
    ) = 0;

    // Records a use of `id` at `now` (callers do it at most about once a minute per sandbox).
    [[nodiscard]] virtual core::result<void> touch(
        std::string_view id, std::chrono::system_clock::time_point now
    ) = 0;

    // Forgets `id` and deletes its data (SQLite: the file and its -wal/-shm; PostgreSQL: DROP SCHEMA …
    // CASCADE in the same transaction as the registry row). The caller has closed its own stores of `id`
    // first. False when it was not registered.
    [[nodiscard]] virtual core::result<bool> remove(std::string_view id) = 0;

    // The ids last used before `cutoff` (the purge removes them), at most `limit` of them.
    [[nodiscard]] virtual core::result<std::vector<std::string>> idle_since(
        std::chrono::system_clock::time_point cutoff, std::size_t limit
    ) = 0;

    // How many are registered.
    [[nodiscard]] virtual core::result<std::size_t> count() = 0;

    // Moves whenever any instance creates or removes a sandbox (PostgreSQL: a NOTIFY on a channel of its
    // own; in-process backends: on each create/remove), so a cache of "which sandboxes hold data" can tell
    // when to look again. Cheap: an atomic read.
    [[nodiscard]] virtual std::uint64_t revision() const = 0;

    // The storage_config whose make_* stores hold `id`'s data (pool sizes kept small: many can be open).
    [[nodiscard]] virtual storage_config config_for(std::string_view id) const = 0;

    // True when the data of a sandbox survives its stores being closed (SQLite, PostgreSQL): the caller
    // may then close the stores of sandboxes it has not used lately. False for memory.
    [[nodiscard]] virtual bool durable() const = 0;
};

// The registry of `config`'s backend (the shared view's config). Throws like the factory's make_*.
[[nodiscard]] std::unique_ptr<sandbox_store> make_sandbox_store(const storage_config& config);

}  // namespace storefront::storage
