#pragma once
// The rows of each cached list that a store's recent writes changed, read and serialised again: what
// fragment_list patches its snapshot with instead of rereading the whole list.

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "core/model.hpp"
#include "server/caches/response_cache.hpp"
#include "storage/catalogue_store.hpp"
#include "storage/user_store.hpp"

namespace storefront::server {

// The products changed since `since`, each written by `write`: those the store names, and every product of
// a changed category (products embed their category). nullopt when the store cannot tell.
[[nodiscard]] std::optional<serialised_changes> product_changes(
    const storage::catalogue_store& store,
    std::uint64_t since,
    const std::function<std::string(const core::product&)>& write
);
// The categories changed since `since`; nullopt when the store cannot tell.
[[nodiscard]] std::optional<serialised_changes> category_changes(
    const storage::catalogue_store& store,
    std::uint64_t since,
    const std::function<std::string(const core::category&)>& write
);
// The users changed since `since`; nullopt when the store cannot tell.
[[nodiscard]] std::optional<serialised_changes> user_changes(
    const storage::user_store& store,
    std::uint64_t since,
    const std::function<std::string(const core::user&)>& write
);

}  // namespace storefront::server
