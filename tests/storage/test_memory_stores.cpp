// User and location store contracts: user pages, lookups and Argon2id credentials; the generated
// default location set (size, determinism, ranges, place names) and its random and nearest queries.

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <memory>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <vector>

#include <boost/mpl/list.hpp>
#include <boost/test/unit_test.hpp>

#include "backends.hpp"
#include "core/email.hpp"
#include "core/geo.hpp"
#include "core/password.hpp"
#include "storage/factory.hpp"
#include "storage/location_store.hpp"
#include "storage/user_store.hpp"

namespace storage = storefront::storage;
namespace core = storefront::core;

namespace {

using storefront::test::memory_backend;
using storefront::test::pg_backend;
using storefront::test::skipped;
using storefront::test::sqlite_backend;
using user_backends = boost::mpl::list<memory_backend, sqlite_backend, pg_backend>;
// Locations are generated or read from CSV into memory for every backend.
using location_backends = boost::mpl::list<memory_backend>;

// Built once per backend and test run: hashing the seed passwords and generating 100,000 locations is not
// free. The cases below only read.
template <class Backend>
const storage::user_store& seeded_users() {
    static const auto store = storage::make_user_store(Backend::config());
    return *store;
}

template <class Backend>
const storage::location_store& generated_locations() {
    static const auto store = storage::make_location_store(Backend::config());
    return *store;
}

constexpr core::geo_point bogota_origin{4.6482784, -74.2726198};

core::geo_point position(const core::location& l) {
    return {l.latitude, l.longitude};
}

std::vector<std::int64_t> ids_of(const std::vector<core::location>& locations) {
    std::vector<std::int64_t> ids;
    for (const auto& l : locations) {
        ids.push_back(l.id);
    }
    return ids;
}

bool same_location(const core::location& a, const core::location& b) {
    return a.id == b.id && a.name == b.name && a.description == b.description && a.latitude == b.latitude &&
           a.longitude == b.longitude;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(user_store_contract)

BOOST_AUTO_TEST_CASE_TEMPLATE(lists_the_seed_users_in_id_order, Backend, user_backends) {
    if (skipped<Backend>()) {
        return;
    }
    struct expected {
        std::int64_t id;
        const char* email;
        const char* name;
        const char* role;
    };
    const expected table[] = {
        {1, "john@mail.com", "Jhon", "customer"},
        {2, "maria@mail.com", "Maria", "customer"},
        {3, "admin@mail.com", "Admin", "admin"},
    };
    const auto& store = seeded_users<Backend>();
    BOOST_TEST(store.user_count() == 3u);
    const auto users = store.list_users({0, 100});
    BOOST_TEST_REQUIRE(users.size() == std::size(table));
    for (std::size_t i = 0; i < users.size(); ++i) {
        BOOST_TEST_CONTEXT("user " << table[i].id) {
            BOOST_TEST(users[i].id == table[i].id);
            BOOST_TEST(users[i].email == table[i].email);
            BOOST_TEST(users[i].name == table[i].name);
            BOOST_TEST(users[i].role == table[i].role);
            BOOST_TEST(users[i].avatar == "/api/v1/images/avatars/" + std::to_string(table[i].id) + ".png");
            BOOST_TEST(users[i].created_at > 0);
            BOOST_TEST(users[i].updated_at >= users[i].created_at);
        }
    }
}

BOOST_AUTO_TEST_CASE_TEMPLATE(user_pages, Backend, user_backends) {
    if (skipped<Backend>()) {
        return;
    }
    const auto& store = seeded_users<Backend>();
    BOOST_TEST(store.list_users({1, 1}).size() == 1u);
    BOOST_TEST(store.list_users({1, 1}).front().id == 2);
    BOOST_TEST(store.list_users({2, 10}).size() == 1u);
    BOOST_TEST(store.list_users({3, 10}).empty());
    BOOST_TEST(store.list_users({1000, 100}).empty());
}

BOOST_AUTO_TEST_CASE_TEMPLATE(finds_users_by_id, Backend, user_backends) {
    if (skipped<Backend>()) {
        return;
    }
    const auto& store = seeded_users<Backend>();
    const auto john = store.find_user(1);
    BOOST_TEST_REQUIRE(john.has_value());
    BOOST_TEST(john->name == "Jhon");
    BOOST_TEST(store.find_user(3)->role == "admin");
    for (const std::int64_t missing :
         {std::int64_t{0}, std::int64_t{-1}, std::int64_t{4}, std::int64_t{1'000'000}}) {
        BOOST_TEST_CONTEXT("id " << missing) {
            BOOST_TEST(!store.find_user(missing).has_value());
        }
    }
}

BOOST_AUTO_TEST_CASE_TEMPLATE(credentials_hold_argon2id_hashes_only, Backend, user_backends) {
    if (skipped<Backend>()) {
        return;
    }
    struct login {
        const char* email;
        const char* password;
    };
    const login table[] = {
        {"john@mail.com", "changeme"},
        {"maria@mail.com", "12345"},
        {"admin@mail.com", "admin123"},
    };
    const auto& store = seeded_users<Backend>();
    for (const auto& l : table) {
        BOOST_TEST_CONTEXT(l.email) {
            const auto credentials = store.find_credentials(l.email);
            BOOST_TEST_REQUIRE(credentials.has_value());
            BOOST_TEST(credentials->profile.email == l.email);
            BOOST_TEST(credentials->password_hash != l.password);
            BOOST_TEST(credentials->password_hash.find(l.password) == std::string::npos);
            BOOST_TEST(credentials->password_hash.starts_with("$argon2id$"));
            BOOST_TEST(core::verify_password(l.password, credentials->password_hash));
            BOOST_TEST(!core::verify_password("wrong", credentials->password_hash));
        }
    }
    BOOST_TEST(!store.find_credentials("nobody@mail.com").has_value());
    BOOST_TEST(!store.find_credentials("").has_value());
}

BOOST_AUTO_TEST_CASE_TEMPLATE(email_taken_on_normalised_addresses, Backend, user_backends) {
    if (skipped<Backend>()) {
        return;
    }
    const auto& store = seeded_users<Backend>();
    BOOST_TEST(store.email_taken("maria@mail.com").value());
    BOOST_TEST(store.email_taken("admin@mail.com").value());
    BOOST_TEST(!store.email_taken("new@mail.com").value());
    BOOST_TEST(!store.email_taken("mail.com").value());
    const auto normalized = core::normalize_email("  John@Mail.COM ");
    BOOST_TEST_REQUIRE(normalized.has_value());
    BOOST_TEST(store.email_taken(*normalized).value());
    BOOST_TEST(store.find_credentials(*normalized)->profile.id == 1);
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(location_store_contract)

BOOST_AUTO_TEST_CASE_TEMPLATE(default_set_has_100000_locations_in_range, Backend, location_backends) {
    const auto& store = generated_locations<Backend>();
    BOOST_TEST_REQUIRE(store.location_count() == 100'000u);
    // Asking for every location returns the whole set, in id order.
    const auto all = store.random_locations(store.location_count(), 1);
    BOOST_TEST_REQUIRE(all.size() == 100'000u);
    std::size_t bad = 0;
    for (std::size_t i = 0; i < all.size(); ++i) {
        const auto& l = all[i];
        const bool ok = l.id == static_cast<std::int64_t>(i + 1) && l.latitude >= -90.0 &&
                        l.latitude <= 90.0 && l.longitude >= -180.0 && l.longitude <= 180.0 &&
                        !l.name.empty() && !l.description.empty();
        if (!ok) {
            BOOST_TEST_MESSAGE("bad location " << l.id << " " << l.latitude << "," << l.longitude);
            ++bad;
        }
    }
    BOOST_TEST(bad == 0u);
    BOOST_TEST(all.front().name == "Bogotá");
    BOOST_TEST(all.front().latitude == bogota_origin.latitude);
    BOOST_TEST(all.front().longitude == bogota_origin.longitude);
    // Points cover the far south and the antimeridian region too.
    const auto has = [&](auto predicate) { return std::any_of(all.begin(), all.end(), predicate); };
    BOOST_TEST(has([](const auto& l) { return l.latitude < -89.0; }));
    BOOST_TEST(has([](const auto& l) { return l.longitude > 178.0; }));
    BOOST_TEST(has([](const auto& l) { return l.longitude < -175.0; }));
}

// The naming rule: a generated location (every one but the first) is a street address, "<house number>
// <name>", described as "Street address near <city>, <country>", or a point of interest whose name ends
// with its kind, described as "<kind> near <city>, <country>"; never a numbered city ("Bogotá #457").
BOOST_AUTO_TEST_CASE_TEMPLATE(generated_names_read_like_places, Backend, location_backends) {
    const auto& store = generated_locations<Backend>();
    const auto all = store.all();
    std::size_t addresses = 0;
    std::size_t bad = 0;
    std::set<std::string> kinds;
    std::set<std::string> names;
    for (const auto& l : all.subspan(1)) {
        const std::size_t near = l.description.find(" near ");
        const bool described =
            near != std::string::npos && near > 0 && l.description.find(", ", near) != std::string::npos;
        const std::string kind = described ? l.description.substr(0, near) : std::string{};
        bool ok = described && l.name.find('#') == std::string::npos;
        if (kind == "Street address") {
            const std::size_t space = l.name.find(' ');
            const std::string number = l.name.substr(0, space);
            ok = ok && space != std::string::npos && space + 1 < l.name.size() && !number.empty() &&
                 number.front() != '0' &&
                 std::all_of(number.begin(), number.end(), [](char c) { return c >= '0' && c <= '9'; });
            ++addresses;
        } else {
            ok = ok && !kind.empty() && l.name.size() > kind.size() + 1 && l.name.ends_with(" " + kind);
            kinds.insert(kind);
        }
        names.insert(l.name);
        if (!ok) {
            BOOST_TEST_MESSAGE("badly named location " << l.id << ": " << l.name << " / " << l.description);
            ++bad;
        }
    }
    BOOST_TEST(bad == 0u);
    // Both forms are common, the kinds varied, and names repeat far less often than cities do.
    BOOST_TEST(addresses > all.size() / 4);
    BOOST_TEST(addresses < all.size() * 3 / 4);
    BOOST_TEST(kinds.size() >= 10u);
    BOOST_TEST(names.size() > 1000u);
    // Descriptions name the city the point lies near: the 50 nearest to the public default origin.
    for (const auto& l : store.nearest_locations(bogota_origin, 50, std::nullopt)) {
        BOOST_TEST_CONTEXT(l.id << " " << l.description) {
            BOOST_TEST((l.id == 1 || l.description.ends_with(" near Bogotá, Colombia")));
        }
    }
}

BOOST_AUTO_TEST_CASE_TEMPLATE(generation_is_deterministic, Backend, location_backends) {
    const auto& first = generated_locations<Backend>();
    const auto second = storage::make_location_store(Backend::config());
    BOOST_TEST_REQUIRE(second->location_count() == first.location_count());
    const auto a = first.random_locations(first.location_count(), 3);
    const auto b = second->random_locations(second->location_count(), 3);
    BOOST_TEST(same_location(a.front(), b.front()));
    BOOST_TEST(same_location(a.back(), b.back()));
    BOOST_TEST(std::equal(a.begin(), a.end(), b.begin(), b.end(), same_location));

    auto other_config = Backend::config();
    other_config.location_seed += 1;
    other_config.generated_locations = 1000;
    const auto other = storage::make_location_store(other_config);
    BOOST_TEST(other->location_count() == 1000u);
    const auto c = other->random_locations(1000, 3);
    BOOST_TEST(!std::equal(c.begin() + 1, c.end(), a.begin() + 1, a.begin() + 1000, same_location));
}

BOOST_AUTO_TEST_CASE_TEMPLATE(random_locations_are_distinct_and_repeatable, Backend, location_backends) {
    const auto& store = generated_locations<Backend>();
    for (const std::size_t count : {std::size_t{0}, std::size_t{1}, std::size_t{5}, std::size_t{50}}) {
        BOOST_TEST_CONTEXT("count " << count) {
            const auto sample = store.random_locations(count, 42);
            BOOST_TEST(sample.size() == count);
            const auto ids = ids_of(sample);
            BOOST_TEST(std::is_sorted(ids.begin(), ids.end()));
            BOOST_TEST(std::set<std::int64_t>(ids.begin(), ids.end()).size() == count);
            BOOST_TEST(ids_of(store.random_locations(count, 42)) == ids, boost::test_tools::per_element());
        }
    }
    BOOST_TEST(ids_of(store.random_locations(50, 1)) != ids_of(store.random_locations(50, 2)));
}

BOOST_AUTO_TEST_CASE_TEMPLATE(nearest_to_bogota_origin, Backend, location_backends) {
    const auto& store = generated_locations<Backend>();
    const auto found = store.nearest_locations(bogota_origin, 50, std::nullopt);
    BOOST_TEST_REQUIRE(found.size() == 50u);
    BOOST_TEST(found.front().id == 1);
    double previous = 0;
    for (const auto& l : found) {
        const double km = core::great_circle_km(bogota_origin, position(l));
        BOOST_TEST(km >= previous);
        BOOST_TEST(km <= 30.0);
        previous = km;
    }
}

BOOST_AUTO_TEST_CASE_TEMPLATE(nearest_honours_radius_and_count, Backend, location_backends) {
    const auto& store = generated_locations<Backend>();
    for (const double radius : {0.0, 1.0, 5.0, 20.0}) {
        BOOST_TEST_CONTEXT("radius " << radius) {
            const auto found = store.nearest_locations(bogota_origin, 50, radius);
            BOOST_TEST(!found.empty());
            BOOST_TEST(found.size() <= 50u);
            double previous = 0;
            for (const auto& l : found) {
                const double km = core::great_circle_km(bogota_origin, position(l));
                BOOST_TEST(km <= radius + 1e-9);
                BOOST_TEST(km >= previous);
                previous = km;
            }
        }
    }
    BOOST_TEST(store.nearest_locations(bogota_origin, 50, 20.0).size() == 50u);
    BOOST_TEST(store.nearest_locations(bogota_origin, 0, std::nullopt).empty());
    BOOST_TEST(store.nearest_locations(bogota_origin, 3, std::nullopt).size() == 3u);
    // Mid-Atlantic, far from every city.
    BOOST_TEST(store.nearest_locations({-45.0, -30.0}, 5, 100.0).empty());
}

// The position queries answer into the caller's buffer, and agree with the copying forms.
BOOST_AUTO_TEST_CASE_TEMPLATE(position_queries_index_into_all, Backend, location_backends) {
    const auto& store = generated_locations<Backend>();
    const auto all = store.all();
    BOOST_TEST(all.data() == store.all().data());  // stable: no copy per call
    std::array<core::neighbour, 50> found{};
    for (const core::geo_point origin :
         {bogota_origin, core::geo_point{0, -140}, core::geo_point{-45, -30}}) {
        for (const std::optional<double> radius : {std::optional<double>{}, std::optional<double>{25.0}}) {
            BOOST_TEST_CONTEXT(
                origin.latitude << "," << origin.longitude << " radius " << radius.value_or(-1)
            ) {
                const auto copies = store.nearest_locations(origin, 12, radius);
                const std::size_t n = store.nearest_positions(origin, radius, std::span(found).first(12));
                BOOST_TEST_REQUIRE(n == copies.size());
                for (std::size_t i = 0; i < n; ++i) {
                    BOOST_TEST(same_location(all[found[i].slot], copies[i]));
                    BOOST_TEST(
                        std::abs(found[i].distance_km - core::great_circle_km(origin, position(copies[i]))) <
                        1e-6
                    );
                }
            }
        }
    }
    std::array<std::uint32_t, 50> positions{};
    const std::size_t n = store.random_positions(42, std::span(positions).first(20));
    const auto copies = store.random_locations(20, 42);
    BOOST_TEST_REQUIRE(n == copies.size());
    for (std::size_t i = 0; i < n; ++i) {
        BOOST_TEST(same_location(all[positions[i]], copies[i]));
    }
}

BOOST_AUTO_TEST_CASE_TEMPLATE(nearest_across_the_antimeridian_and_at_the_pole, Backend, location_backends) {
    const auto& store = generated_locations<Backend>();
    const core::geo_point dateline{-19.0, 180.0};
    const auto around = store.nearest_locations(dateline, store.location_count(), 800.0);
    const auto east =
        std::any_of(around.begin(), around.end(), [](const auto& l) { return l.longitude > 170.0; });
    const auto west =
        std::any_of(around.begin(), around.end(), [](const auto& l) { return l.longitude < -170.0; });
    BOOST_TEST(east);  // Suva
    BOOST_TEST(west);  // Nuku'alofa
    for (const auto& l : around) {
        BOOST_TEST(core::great_circle_km(dateline, position(l)) <= 800.0 + 1e-9);
    }

    const auto pole = store.nearest_locations({-90.0, 0.0}, 5, 50.0);
    BOOST_TEST_REQUIRE(!pole.empty());
    for (const auto& l : pole) {
        BOOST_TEST(l.latitude < -89.5);
    }
}

BOOST_AUTO_TEST_SUITE_END()
