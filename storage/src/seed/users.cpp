// Seed users. The clear passwords below are the public demo credentials from behaviour.md; only their
// Argon2id hashes ever reach a store.

#include "seed/users.hpp"

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

#include "core/password.hpp"
#include "seed/catalogue.hpp"

namespace storefront::storage::detail {
namespace {

struct seed_user {
    std::int64_t id;
    std::string_view email;
    std::string_view password;
    std::string_view name;
    std::string_view role;
};

constexpr std::array<seed_user, 3> user_table{{
    {1, "john@mail.com", "changeme", "Jhon", "customer"},
    {2, "maria@mail.com", "12345", "Maria", "customer"},
    {3, "admin@mail.com", "admin123", "Admin", "admin"},
}};

}  // namespace

// Hashed once per process (a thread-safe static): every sandbox's user store is seeded from the same list,
// and Argon2id is deliberately slow. Each caller gets its own copy.
std::vector<core::user_credentials> seed_user_credentials() {
    static const std::vector<core::user_credentials> hashed =
        records_from(user_table, [](const seed_user& row) {
            core::user_credentials c;
            c.profile.id = row.id;
            c.profile.email = std::string(row.email);
            c.profile.name = std::string(row.name);
            c.profile.role = std::string(row.role);
            c.profile.avatar = "/api/v1/images/avatars/" + std::to_string(row.id) + ".png";
            c.profile.created_at = seed_epoch_ms + (row.id - 1) * 1000;
            c.profile.updated_at = c.profile.created_at;
            c.profile.seed = true;
            c.password_hash = core::hash_password(row.password);
            return c;
        });
    return hashed;
}

}  // namespace storefront::storage::detail
