// The document cache: a hit returns the same prepared document, failures are not kept, and the capacity
// evicts the least recently used query text; concurrent use from several threads is safe.

#include <atomic>
#include <thread>
#include <vector>

#include <boost/test/unit_test.hpp>

#include "graphql/document_cache.hpp"
#include "storefront_schema.hpp"

namespace gql = storefront::graphql;

BOOST_AUTO_TEST_SUITE(graphql_document_cache)

BOOST_AUTO_TEST_CASE(hit_miss_and_eviction) {
    gql::document_cache cache(2);
    const auto& s = gql::testing::storefront_schema();
    const gql::limits bounds;
    const auto a1 = cache.prepare(s, "{ categories { id } }", bounds);
    const auto a2 = cache.prepare(s, "{ categories { id } }", bounds);
    BOOST_TEST_REQUIRE(a1.document != nullptr);
    BOOST_TEST(a1.document == a2.document);
    BOOST_TEST(cache.size() == 1u);
    const auto bad = cache.prepare(s, "{ nope }", bounds);
    BOOST_TEST(bad.document == nullptr);
    BOOST_TEST(bad.errors.size() == 1u);
    BOOST_TEST(cache.size() == 1u);
    const auto b = cache.prepare(s, "{ users { id } }", bounds);
    (void)cache.prepare(s, "{ categories { id } }", bounds);         // a is now the most recent
    const auto c = cache.prepare(s, "{ products { id } }", bounds);  // evicts b
    BOOST_TEST(cache.size() == 2u);
    BOOST_TEST(cache.prepare(s, "{ categories { id } }", bounds).document == a1.document);
    BOOST_TEST(cache.prepare(s, "{ users { id } }", bounds).document != b.document);
    BOOST_TEST(cache.size() == 2u);
}

BOOST_AUTO_TEST_CASE(threads) {
    gql::document_cache cache(8);
    const auto& s = gql::testing::storefront_schema();
    std::vector<std::thread> threads;
    std::atomic<int> prepared{0};  // Boost.Test assertions are not thread-safe: count, check afterwards
    for (int t = 0; t < 4; ++t) {
        threads.emplace_back([&, t] {
            for (int i = 0; i < 200; ++i) {
                const auto p = cache.prepare(
                    s, "{ a" + std::to_string((i + t) % 12) + ": categories { id } }", gql::limits{}
                );
                if (p.document != nullptr) {
                    ++prepared;
                }
            }
        });
    }
    for (auto& th : threads) {
        th.join();
    }
    BOOST_TEST(prepared.load() == 800);
    BOOST_TEST(cache.size() == 8u);
}

BOOST_AUTO_TEST_SUITE_END()
