// Tests for list_answers: hits only at the revision an answer was kept at, a newer revision empties the
// cache, answers computed before a write the cache has seen are not kept, and entries and bytes stay bounded.
#include <memory>
#include <string>

#include <boost/test/unit_test.hpp>

#include "server/caches/list_answers.hpp"

using namespace storefront::server;

namespace {

list_answer answer_of(std::string json, std::size_t total) {
    return {std::make_shared<const prepared_body>(std::move(json)), total};
}

}  // namespace

BOOST_AUTO_TEST_SUITE(list_answers_cache)

BOOST_AUTO_TEST_CASE(hits_only_at_the_revision_kept) {
    list_answers cache(8, 1 << 20);
    BOOST_TEST(!cache.find("a", 1).has_value());
    cache.keep("a", 1, answer_of("[1]", 3));
    const auto hit = cache.find("a", 1);
    BOOST_TEST_REQUIRE(hit.has_value());
    BOOST_TEST(hit->json->bytes() == "[1]");
    BOOST_TEST(hit->total == 3u);
    BOOST_TEST(!cache.find("b", 1).has_value());
    BOOST_TEST(!cache.find("a", 2).has_value());
}

BOOST_AUTO_TEST_CASE(a_newer_revision_drops_older_answers_and_older_ones_are_not_kept) {
    list_answers cache(8, 1 << 20);
    cache.keep("a", 1, answer_of("[1]", 1));
    cache.keep("b", 2, answer_of("[2]", 1));
    BOOST_TEST(cache.size() == 1u);
    BOOST_TEST(!cache.find("a", 1).has_value());
    // Computed from revision 1 but finished after revision 2 was seen: never served.
    cache.keep("c", 1, answer_of("[3]", 1));
    BOOST_TEST(!cache.find("c", 1).has_value());
    BOOST_TEST(!cache.find("c", 2).has_value());
    BOOST_TEST(cache.find("b", 2).has_value());
}

BOOST_AUTO_TEST_CASE(entries_are_bounded_least_recently_used_first) {
    list_answers cache(3, 1 << 20);
    cache.keep("a", 1, answer_of("[1]", 1));
    cache.keep("b", 1, answer_of("[2]", 1));
    cache.keep("c", 1, answer_of("[3]", 1));
    BOOST_TEST(cache.find("a", 1).has_value());  // now the most recent
    cache.keep("d", 1, answer_of("[4]", 1));
    BOOST_TEST(cache.size() == 3u);
    BOOST_TEST(cache.find("a", 1).has_value());
    BOOST_TEST(!cache.find("b", 1).has_value());
    BOOST_TEST(cache.find("c", 1).has_value());
    BOOST_TEST(cache.find("d", 1).has_value());
}

BOOST_AUTO_TEST_CASE(bytes_are_bounded_and_large_answers_not_kept) {
    list_answers cache(1000, 1000);
    for (int i = 0; i < 100; ++i) {
        cache.keep("k" + std::to_string(i), 1, answer_of(std::string(50, 'x'), 1));
        BOOST_TEST(cache.bytes() <= 1000u);
    }
    BOOST_TEST(cache.size() < 100u);
    BOOST_TEST(cache.find("k99", 1).has_value());
    cache.keep("big", 1, answer_of(std::string(101, 'x'), 1));  // over a tenth of the budget
    BOOST_TEST(!cache.find("big", 1).has_value());
}

BOOST_AUTO_TEST_CASE(replacing_a_key_keeps_one_entry) {
    list_answers cache(8, 1 << 20);
    cache.keep("a", 1, answer_of("[1]", 1));
    cache.keep("a", 1, answer_of("[1,2]", 2));
    BOOST_TEST(cache.size() == 1u);
    BOOST_TEST(cache.find("a", 1)->total == 2u);
    BOOST_TEST(cache.bytes() == std::string("a").size() + std::string("[1,2]").size());
    cache.clear();
    BOOST_TEST(cache.size() == 0u);
    BOOST_TEST(!cache.find("a", 1).has_value());
}

BOOST_AUTO_TEST_SUITE_END()
