#pragma once
// Seed data is written once per database, guarded by a marker row (not by "the table is empty": deleted rows
// stay deleted). The steps are the same in every durable backend; only the marker's SQL differs.

#include <functional>
#include <string_view>
#include <type_traits>

namespace storefront::storage::detail {

// Runs `write` in one transaction on `conn` when the database does not hold the seed of `aggregate` yet, and
// marks it seeded in the same transaction, so it is never written again at a later start (even when every
// seeded row was deleted since); concurrent callers wait for the first one and do nothing. The backend
// supplies `claim_seed_marker(Connection&, aggregate)`: true when this call set the marker.
template <class Connection>
void seed_once(
    Connection& conn,
    std::string_view aggregate,
    const std::function<void(std::type_identity_t<Connection>&)>& write
) {
    typename Connection::transaction tx(conn);
    if (claim_seed_marker(conn, aggregate)) {
        write(conn);
    }
    tx.commit();
}

}  // namespace storefront::storage::detail
