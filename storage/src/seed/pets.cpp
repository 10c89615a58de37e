// The public petstore's seed pets, orders and users. Clients and course material rely on these ids,
// names, tags and statuses; the one clear password is hashed before it reaches a store.

#include "seed/pets.hpp"

#include <array>
#include <cstdint>
#include <string>

#include "core/password.hpp"
#include "seed/catalogue.hpp"

namespace storefront::storage::detail {
namespace {

struct seed_pet {
    std::int64_t id;
    std::string_view name;
    std::int64_t category_id;
    std::int64_t first_tag;  // tags first_tag and first_tag + 1
    core::pet_status status;
};

constexpr std::array<std::string_view, 5> category_names{"", "Dogs", "Cats", "Rabbits", "Lions"};

constexpr std::array<seed_pet, 10> pet_table{{
    {1, "Cat 1", 2, 1, core::pet_status::available},
    {2, "Cat 2", 2, 2, core::pet_status::available},
    {3, "Cat 3", 2, 3, core::pet_status::pending},
    {4, "Dog 1", 1, 1, core::pet_status::available},
    {5, "Dog 2", 1, 2, core::pet_status::sold},
    {6, "Dog 3", 1, 3, core::pet_status::pending},
    {7, "Lion 1", 4, 1, core::pet_status::available},
    {8, "Lion 2", 4, 2, core::pet_status::available},
    {9, "Lion 3", 4, 3, core::pet_status::available},
    {10, "Rabbit 1", 3, 3, core::pet_status::available},
}};

core::pet_tag tag(std::int64_t id) {
    return {id, "tag" + std::to_string(id)};
}

}  // namespace

std::vector<core::pet> seed_pets() {
    return records_from(pet_table, [](const seed_pet& row) {
        core::pet p;
        p.id = row.id;
        p.category = core::pet_category{row.category_id, std::string(category_names.at(row.category_id))};
        p.name = std::string(row.name);
        p.photo_urls = {"url1", "url2"};
        p.tags = {tag(row.first_tag), tag(row.first_tag + 1)};
        p.status = row.status;
        return p;
    });
}

std::vector<core::pet_order> seed_orders() {
    return {
        {1, 1, 100, seed_epoch_ms, core::order_status::placed, true},
        {2, 1, 50, seed_epoch_ms, core::order_status::approved, true},
        {3, 1, 50, seed_epoch_ms, core::order_status::delivered, true},
    };
}

// The hash is computed once per process (a thread-safe static): every sandbox's pet user store is seeded
// from it, and Argon2id is deliberately slow.
std::vector<core::pet_user_credentials> seed_pet_users() {
    static const std::string hash = core::hash_password(seed_pet_user_password);
    std::vector<core::pet_user_credentials> out;
    for (std::int64_t id = 1; id <= 10; ++id) {
        const std::string n = std::to_string(id);
        core::pet_user_credentials c;
        c.profile.id = id;
        c.profile.username = "user" + n;
        c.profile.first_name = "first name " + n;
        c.profile.last_name = "last name " + n;
        c.profile.email = "email" + n + "@test.com";
        c.profile.phone = "123-456-7890";
        c.profile.user_status = static_cast<std::int32_t>((id - 1) % 3 + 1);
        c.password_hash = hash;
        out.push_back(std::move(c));
    }
    return out;
}

}  // namespace storefront::storage::detail
