#pragma once
// What several ports have in common, declared once: the row count of the pet store's ports (the sandbox
// row quota counts their rows) and the revision feed of the ports whose pages callers cache.

#include <cstddef>
#include <cstdint>

#include "core/errc.hpp"
#include "core/row_changes.hpp"

namespace storefront::storage {

// pet_store, order_store, pet_user_store.
class counted_store {
  public:
    virtual ~counted_store() = default;

    // How many rows (pets, orders, users) the store holds.
    [[nodiscard]] virtual std::size_t count() const = 0;
};

// catalogue_store, user_store.
class revisioned_store {
  public:
    virtual ~revisioned_store() = default;

    // Increases with every write, so callers may cache serialised pages per revision.
    [[nodiscard]] virtual std::uint64_t revision() const = 0;
    // The rows (of this store's tables) written after revision `since` up to the current revision, so a cache
    // of that revision can reread only those; errc::not_found when this store cannot tell (`since` is too
    // old, the store was reset, or another writer's change arrived unnamed): then reread everything.
    [[nodiscard]] virtual core::result<core::row_changes> changes_since(std::uint64_t since) const = 0;
};

}  // namespace storefront::storage
