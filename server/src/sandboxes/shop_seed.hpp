#pragma once
// The seed users' past orders (issue 42), so order-history screens have something to show: made through
// the shop's storage ports, so every backend gets the same ones (private to server_lib).

#include "storage/catalogue_store.hpp"
#include "storage/shop_store.hpp"
#include "storage/user_store.hpp"

namespace storefront::server {

// When the shop holds no order yet and users 1 and 2 are the seed's john@mail.com and maria@mail.com: five
// past orders, always the same (ids 1-5, January 2026; products 20-33, whose stock they take as real orders
// do):
//   john:  1 delivered (21, 33; paid by visa 4242), 2 shipped (2 x 20; visa), 3 cancelled (26; unpaid)
//   maria: 4 paid (30 with SAVE10; mastercard 4444), 5 delivered (3 x 22; visa)
// Anything else (a restarted durable store, a database another instance seeded) is left as it is; two
// instances starting at once on one fresh PostgreSQL database seed it once (shop_store::seed_history_once).
void seed_past_orders(storage::shop_store& shop, const storage::user_store& users);

}  // namespace storefront::server
