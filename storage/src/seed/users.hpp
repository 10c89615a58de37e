#pragma once
// The three seed users of the public store service, with freshly hashed passwords.

#include <vector>

#include "core/model.hpp"

namespace storefront::storage::detail {

// Users 1..3 with Argon2id hashes of the documented demo passwords (three hash computations, once per
// process; later calls return copies).
[[nodiscard]] std::vector<core::user_credentials> seed_user_credentials();

}  // namespace storefront::storage::detail
