// Tests for the data revision (caches/data_revision.hpp) over the memory stores: it moves with a write
// before the write's call returns (so before its answer), with a catalogue write and with a user write, a
// refused write leaves it, and each data set's revision is its own.
#include <cstdint>
#include <memory>

#include <boost/test/unit_test.hpp>

#include "server/caches/data_revision.hpp"
#include "storage/factory.hpp"

using namespace storefront::server;
namespace storage = storefront::storage;

namespace {

struct data_set {
    std::unique_ptr<storage::catalogue_store> catalogue = storage::make_catalogue_store(config());
    std::unique_ptr<storage::user_store> users = storage::make_user_store(config());
    shared_data_revision revision{*catalogue, *users};

    static storage::storage_config config() {
        storage::storage_config c;  // "memory"
        c.seed_read_only = false;
        return c;
    }
};

}  // namespace

BOOST_AUTO_TEST_SUITE(data_revision_unit)

BOOST_AUTO_TEST_CASE(a_catalogue_write_moves_it_before_the_call_returns) {
    data_set shared;
    const std::uint64_t before = shared.revision.current();
    BOOST_TEST(shared.revision.current() == before);  // stands while nothing is written
    BOOST_TEST_REQUIRE(shared.catalogue
                           ->create_category({.name = "Test hats", .image = "https://example.com/h.png"})
                           .has_value());
    BOOST_TEST(shared.revision.current() > before);
}

BOOST_AUTO_TEST_CASE(a_user_write_moves_it_too) {
    data_set shared;
    const std::uint64_t before = shared.revision.current();
    BOOST_TEST_REQUIRE(shared.users
                           ->create_user(
                               {.email = "w@example.com",
                                .name = "W",
                                .password_hash = "x",
                                .avatar = "",
                                .role = "customer"}
                           )
                           .has_value());
    BOOST_TEST(shared.revision.current() > before);
}

BOOST_AUTO_TEST_CASE(a_refused_write_leaves_it) {
    data_set shared;
    const std::uint64_t before = shared.revision.current();
    BOOST_TEST(!shared.catalogue->delete_product(987'654'321).has_value());  // no such product
    BOOST_TEST(shared.revision.current() == before);
}

BOOST_AUTO_TEST_CASE(each_data_set_has_its_own) {
    data_set shared;
    data_set sandbox;
    const std::uint64_t shared_before = shared.revision.current();
    BOOST_TEST_REQUIRE(sandbox.catalogue
                           ->create_category({.name = "Test hats", .image = "https://example.com/h.png"})
                           .has_value());
    BOOST_TEST(shared.revision.current() == shared_before);
}

BOOST_AUTO_TEST_SUITE_END()
