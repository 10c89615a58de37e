// Tests for answer_cache (caches/answer_cache.hpp), the GraphQL answers: a hit only while both the catalogue
// and the user revision are those the answer was computed at, least recently used dropped first, bytes
// bounded, clear() forgets everything.
#include <memory>
#include <string>

#include <boost/test/unit_test.hpp>

#include "server/caches/answer_cache.hpp"

using namespace storefront::server;

namespace {

std::shared_ptr<const prepared_body> body_of(std::string json) {
    return std::make_shared<const prepared_body>(std::move(json));
}

}  // namespace

BOOST_AUTO_TEST_SUITE(answer_cache_unit)

BOOST_AUTO_TEST_CASE(a_kept_answer_is_a_hit_at_the_same_revisions) {
    answer_cache cache(8, 1 << 20);
    const store_revisions at{3, 9};
    BOOST_TEST(cache.find("{products{id}}", at) == nullptr);
    const auto kept = body_of(R"({"data":{"products":[]}})");
    cache.keep("{products{id}}", at, kept);
    BOOST_TEST(cache.find("{products{id}}", at) == kept);
    BOOST_TEST(cache.find("{categories{id}}", at) == nullptr);
}

BOOST_AUTO_TEST_CASE(a_write_to_either_store_makes_it_a_miss) {
    answer_cache cache(8, 1 << 20);
    cache.keep("q", {3, 9}, body_of("{}"));
    BOOST_TEST(cache.find("q", {4, 9}) == nullptr);   // a catalogue write
    BOOST_TEST(cache.find("q", {3, 10}) == nullptr);  // a user write
    BOOST_TEST(cache.find("q", {4, 10}) == nullptr);
    BOOST_TEST(cache.find("q", {3, 9}) != nullptr);
    // Kept again at the new revisions, the old answer is replaced, not added.
    cache.keep("q", {4, 9}, body_of(R"({"v":2})"));
    BOOST_TEST(cache.size() == 1u);
    BOOST_TEST(cache.find("q", {4, 9})->bytes() == R"({"v":2})");
    BOOST_TEST(cache.find("q", {3, 9}) == nullptr);
}

BOOST_AUTO_TEST_CASE(entries_are_bounded_least_recently_used_first) {
    answer_cache cache(3, 1 << 20);
    const store_revisions at{1, 1};
    cache.keep("a", at, body_of("1"));
    cache.keep("b", at, body_of("2"));
    cache.keep("c", at, body_of("3"));
    BOOST_TEST(cache.find("a", at) != nullptr);  // now the most recent
    cache.keep("d", at, body_of("4"));
    BOOST_TEST(cache.size() == 3u);
    BOOST_TEST(cache.find("a", at) != nullptr);
    BOOST_TEST(cache.find("b", at) == nullptr);
    BOOST_TEST(cache.find("c", at) != nullptr);
    BOOST_TEST(cache.find("d", at) != nullptr);
}

BOOST_AUTO_TEST_CASE(bytes_are_bounded_and_large_answers_not_kept) {
    answer_cache cache(1000, 1000);
    const store_revisions at{1, 1};
    for (int i = 0; i < 100; ++i) {
        cache.keep("k" + std::to_string(i), at, body_of(std::string(50, 'x')));
    }
    // Each entry costs its key and bytes (52 or 53): at most 1000 bytes of them.
    BOOST_TEST(cache.size() <= 1000u / 52u);
    BOOST_TEST(cache.find("k99", at) != nullptr);
    BOOST_TEST(cache.find("k0", at) == nullptr);
    cache.keep("big", at, body_of(std::string(101, 'x')));  // over a tenth of the budget
    BOOST_TEST(cache.find("big", at) == nullptr);
}

BOOST_AUTO_TEST_CASE(clear_forgets_every_answer) {
    answer_cache cache(8, 1 << 20);
    cache.keep("a", {1, 1}, body_of("1"));
    cache.keep("b", {1, 1}, body_of("2"));
    cache.clear();
    BOOST_TEST(cache.size() == 0u);
    BOOST_TEST(cache.find("a", {1, 1}) == nullptr);
}

BOOST_AUTO_TEST_SUITE_END()
