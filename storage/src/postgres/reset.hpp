#pragma once
// reset_to_seed for PostgreSQL: every aggregate's rows replaced by the seed data in one transaction.

#include <string>

namespace storefront::storage::detail {

// Empties every table and writes the seed again (and the seed markers), atomically; every instance's
// revisions move through the notifications sent at commit. Throws storage_unavailable.
void pg_reset_to_seed(const std::string& dsn);

}  // namespace storefront::storage::detail
