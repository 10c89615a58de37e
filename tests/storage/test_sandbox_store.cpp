// The contract of sandbox_store, written once for every adapter: find, create within max_live, remove,
// generations, idle_since and revisions; for the durable backends also that stores built from config_for
// are isolated from the shared view and from each other and start from the seed again after a remove; on
// PostgreSQL, that two instances on one database see each other's registry and the drop of a schema in
// use answers storage_unavailable.

#include <chrono>
#include <memory>
#include <string>
#include <thread>
#include <type_traits>
#include <vector>

#include <boost/mpl/list.hpp>
#include <boost/test/unit_test.hpp>

#include "backends.hpp"
#include "common/eventually.hpp"
#include "core/errc.hpp"
#include "storage/factory.hpp"
#include "storage/sandbox_store.hpp"
#include "storage/storage_error.hpp"

namespace storage = storefront::storage;
namespace core = storefront::core;
using core::errc;
using namespace std::chrono_literals;

using storefront::test::eventually;

// A namespace of its own: a unity build compiles this file beside others whose helpers share names.
namespace sandbox_store_file {
namespace {

using storefront::test::memory_backend;
using storefront::test::pg_backend;
using storefront::test::pg_instance;
using storefront::test::skipped;
using storefront::test::sqlite_backend;
using all_backends = boost::mpl::list<memory_backend, sqlite_backend, pg_backend>;
// Backends whose sandboxes have stores of their own behind config_for (memory's are the caller's objects).
using durable_backends = boost::mpl::list<sqlite_backend, pg_backend>;

using sys_clock = std::chrono::system_clock;

template <class T>
errc code_of(const core::result<T>& r) {
    return r ? errc::ok : static_cast<errc>(r.error().value());
}

core::product_draft mug(std::string title) {
    return {std::move(title), 12.5, "A mug", 2, {"https://x.com/mug.png"}};
}

bool found(storage::sandbox_store& registry, const std::string& id) {
    const auto record = registry.find(id);
    BOOST_TEST_REQUIRE(record.has_value());
    return record->has_value();
}

}  // namespace

BOOST_AUTO_TEST_SUITE(sandbox_registry)

BOOST_AUTO_TEST_CASE_TEMPLATE(create_registers_once_and_find_answers_the_record, Backend, all_backends) {
    if (skipped<Backend>()) {
        return;
    }
    const auto registry = storage::make_sandbox_store(Backend::config());
    const auto now = sys_clock::now();
    BOOST_TEST(!found(*registry, "unknown-id"));
    BOOST_TEST(*registry->count() == 0u);

    const auto created = registry->create("aaaa", 10, now);
    BOOST_TEST_REQUIRE(created.has_value());
    BOOST_TEST(created->id == "aaaa");
    const auto record = registry->find("aaaa");
    BOOST_TEST_REQUIRE(record->has_value());
    BOOST_TEST((*record)->generation == created->generation);
    BOOST_TEST(*registry->count() == 1u);

    const auto again = registry->create("aaaa", 10, now + 1s);
    BOOST_TEST_REQUIRE(again.has_value());
    BOOST_TEST(again->generation == created->generation);
    BOOST_TEST(*registry->count() == 1u);
    BOOST_TEST(!found(*registry, "AAAA"));  // ids are case-sensitive
}

BOOST_AUTO_TEST_CASE_TEMPLATE(create_beyond_max_live_is_storage_full, Backend, all_backends) {
    if (skipped<Backend>()) {
        return;
    }
    const auto registry = storage::make_sandbox_store(Backend::config());
    const auto now = sys_clock::now();
    BOOST_TEST_REQUIRE(registry->create("aaaa", 2, now).has_value());
    BOOST_TEST_REQUIRE(registry->create("bbbb", 2, now).has_value());
    BOOST_TEST((code_of(registry->create("cccc", 2, now)) == errc::storage_full));
    BOOST_TEST(!found(*registry, "cccc"));
    BOOST_TEST(found(*registry, "aaaa"));
    BOOST_TEST(found(*registry, "bbbb"));
    BOOST_TEST(registry->create("aaaa", 2, now).has_value());  // registered already: no new room needed
    BOOST_TEST(*registry->count() == 2u);
}

BOOST_AUTO_TEST_CASE_TEMPLATE(remove_forgets_and_a_new_life_has_a_new_generation, Backend, all_backends) {
    if (skipped<Backend>()) {
        return;
    }
    const auto registry = storage::make_sandbox_store(Backend::config());
    const auto now = sys_clock::now();
    const auto first = registry->create("aaaa", 10, now);
    BOOST_TEST_REQUIRE(first.has_value());

    const auto removed = registry->remove("aaaa");
    BOOST_TEST_REQUIRE(removed.has_value());
    BOOST_TEST(*removed);
    BOOST_TEST(!found(*registry, "aaaa"));
    BOOST_TEST(*registry->count() == 0u);
    BOOST_TEST(*registry->remove("aaaa") == false);
    BOOST_TEST(*registry->remove("never-there") == false);

    const auto second = registry->create("aaaa", 10, now);
    BOOST_TEST_REQUIRE(second.has_value());
    BOOST_TEST(second->generation != first->generation);
    BOOST_TEST((*registry->find("aaaa"))->generation == second->generation);
    BOOST_TEST(*registry->count() == 1u);
}

BOOST_AUTO_TEST_CASE_TEMPLATE(idle_since_answers_those_last_used_before_the_cutoff, Backend, all_backends) {
    if (skipped<Backend>()) {
        return;
    }
    const auto registry = storage::make_sandbox_store(Backend::config());
    const auto now = sys_clock::now();
    BOOST_TEST_REQUIRE(registry->create("aaaa", 10, now).has_value());
    BOOST_TEST_REQUIRE(registry->create("bbbb", 10, now).has_value());
    BOOST_TEST_REQUIRE(registry->create("cccc", 10, now).has_value());
    BOOST_TEST_REQUIRE(registry->touch("aaaa", now - 3h).has_value());
    BOOST_TEST_REQUIRE(registry->touch("bbbb", now).has_value());
    BOOST_TEST_REQUIRE(registry->touch("cccc", now - 2h).has_value());
    BOOST_TEST_REQUIRE(registry->touch("not-registered", now).has_value());  // nothing to record

    const auto idle = registry->idle_since(now - 1h, 10);
    BOOST_TEST_REQUIRE(idle.has_value());
    BOOST_TEST(*idle == (std::vector<std::string>{"aaaa", "cccc"}), boost::test_tools::per_element());
    const auto oldest = registry->idle_since(now - 1h, 1);
    BOOST_TEST(*oldest == std::vector<std::string>{"aaaa"}, boost::test_tools::per_element());
    BOOST_TEST(registry->idle_since(now - 4h, 10)->empty());

    const auto record = registry->find("cccc");
    const auto off = std::chrono::abs((*record)->last_used - (now - 2h));
    BOOST_TEST(off < 1ms);
}

BOOST_AUTO_TEST_CASE_TEMPLATE(revision_moves_on_create_and_remove, Backend, all_backends) {
    if (skipped<Backend>()) {
        return;
    }
    const auto registry = storage::make_sandbox_store(Backend::config());
    const auto now = sys_clock::now();
    const auto before_create = registry->revision();
    BOOST_TEST_REQUIRE(registry->create("aaaa", 10, now).has_value());
    BOOST_TEST(registry->revision() > before_create);
    const auto before_remove = registry->revision();
    BOOST_TEST(*registry->remove("aaaa"));
    BOOST_TEST(registry->revision() > before_remove);
    constexpr bool durable = !std::is_same_v<Backend, memory_backend>;
    BOOST_TEST(registry->durable() == durable);
}

BOOST_AUTO_TEST_CASE_TEMPLATE(
    sandbox_stores_are_isolated_and_start_from_the_seed, Backend, durable_backends
) {
    if (skipped<Backend>()) {
        return;
    }
    const auto config = Backend::config();
    const auto registry = storage::make_sandbox_store(config);
    const auto now = sys_clock::now();
    BOOST_TEST_REQUIRE(registry->create("aaaa", 10, now).has_value());
    BOOST_TEST_REQUIRE(registry->create("bbbb", 10, now).has_value());
    {
        const auto shared = storage::make_catalogue_store(config);
        const auto a = storage::make_catalogue_store(registry->config_for("aaaa"));
        const auto b = storage::make_catalogue_store(registry->config_for("bbbb"));
        const auto in_a = a->create_product(mug("Sandbox Mug"));
        BOOST_TEST_REQUIRE(in_a.has_value());
        BOOST_TEST(in_a->id == 52);
        BOOST_TEST(a->count_products({}) == 52u);
        BOOST_TEST(shared->count_products({}) == 51u);
        BOOST_TEST(b->count_products({}) == 51u);
        BOOST_TEST(!shared->find_product_by_slug("sandbox-mug").has_value());
        BOOST_TEST(!b->find_product_by_slug("sandbox-mug").has_value());

        const auto in_b = b->create_product(mug("Other Mug"));
        BOOST_TEST_REQUIRE(in_b.has_value());
        BOOST_TEST(in_b->id == 52);  // each sandbox numbers from the seed on
        BOOST_TEST(!a->find_product_by_slug("other-mug").has_value());
        BOOST_TEST(!shared->find_product(52).has_value());
    }
    // The caller closes its stores first, then removes; the next life starts from the seed again.
    BOOST_TEST_REQUIRE(*registry->remove("aaaa"));
    BOOST_TEST_REQUIRE(registry->create("aaaa", 10, now).has_value());
    const auto again = storage::make_catalogue_store(registry->config_for("aaaa"));
    BOOST_TEST(again->count_products({}) == 51u);
    BOOST_TEST(!again->find_product_by_slug("sandbox-mug").has_value());
    const auto other = storage::make_catalogue_store(registry->config_for("bbbb"));
    BOOST_TEST(other->find_product_by_slug("other-mug").has_value());  // another sandbox kept its data
}

BOOST_AUTO_TEST_CASE(two_pg_instances_share_the_registry) {
    if (!pg_backend::available()) {
        return;
    }
    const auto dsn = pg_backend::config().backend;
    const auto first = storage::make_sandbox_store(pg_instance(dsn, "one"));
    const auto second = storage::make_sandbox_store(pg_instance(dsn, "two"));
    BOOST_TEST(*second->count() == 0u);
    // The second instance's listener bumps its revision once it listens; from then on notifications count.
    BOOST_TEST_REQUIRE(eventually([&] { return second->revision() > 1; }, 2000ms));

    const auto before_create = second->revision();
    BOOST_TEST_REQUIRE(first->create("aaaa", 10, sys_clock::now()).has_value());
    BOOST_TEST(found(*second, "aaaa"));
    BOOST_TEST(eventually([&] { return second->revision() > before_create; }, 2000ms));
    BOOST_TEST((code_of(second->create("bbbb", 1, sys_clock::now())) == errc::storage_full));

    const auto before_remove = second->revision();
    BOOST_TEST(*first->remove("aaaa"));
    BOOST_TEST(!found(*second, "aaaa"));
    BOOST_TEST(eventually([&] { return second->revision() > before_remove; }, 2000ms));
}

BOOST_AUTO_TEST_CASE(a_pg_sandbox_dropped_while_in_use_is_storage_unavailable) {
    if (!pg_backend::available()) {
        return;
    }
    const auto config = pg_backend::config();
    const auto first = storage::make_sandbox_store(pg_instance(config.backend, "one"));
    const auto second = storage::make_sandbox_store(pg_instance(config.backend, "two"));
    BOOST_TEST_REQUIRE(first->create("aaaa", 10, sys_clock::now()).has_value());
    const auto store = storage::make_catalogue_store(first->config_for("aaaa"));
    BOOST_TEST(store->count_products({}) == 51u);
    BOOST_TEST_REQUIRE(*second->remove("aaaa"));  // another instance purges it meanwhile
    BOOST_CHECK_THROW((void)store->count_products({}), storage::storage_unavailable);
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace sandbox_store_file
