#pragma once
// The shop's expiry pass over one data set (issue 42), run by background tasks (the shared view's
// periodic_task, the sandboxes' purge loop), private to server_lib.

#include <cstddef>

#include "core/shop_model.hpp"
#include "server/services/event_hub.hpp"
#include "storage/shop_store.hpp"

namespace storefront::server {

// Expires every unpaid order of `shop` due at `now` (its stock released) and tells `events` (nullptr: no
// feed) `order.expired` with the order as GET /orders/{id} shows it, for its owner and admins only, once per
// order even with several instances on one PostgreSQL (only the pass that expired it tells). Blocking
// (storage, and on PostgreSQL the shared event log); never throws: a failed pass is retried by the next one.
// Answers how many orders this pass expired.
std::size_t expire_due_orders(storage::shop_store& shop, event_hub* events, core::timestamp_ms now) noexcept;

}  // namespace storefront::server
