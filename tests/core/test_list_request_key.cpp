// Tests for product_list_key: requests that differ in any parameter get different keys, equal ones equal
// keys.
#include <set>
#include <string>
#include <vector>

#include <boost/test/unit_test.hpp>

#include "core/list_request_key.hpp"

using namespace storefront::core;

namespace {

struct request {
    product_filter filter;
    list_options options;
    page_request page;
};

std::string key_of(const request& r) {
    return product_list_key(r.filter, r.options, r.page);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(list_request_key)

BOOST_AUTO_TEST_CASE(equal_requests_have_equal_keys) {
    request a;
    a.filter.title = "shirt";
    a.filter.price_min = 10;
    a.options.search_words = {"blue", "cotton"};
    request b = a;
    BOOST_TEST(key_of(a) == key_of(b));
}

BOOST_AUTO_TEST_CASE(every_parameter_changes_the_key) {
    std::vector<request> variants(1);
    const auto with = [&](auto change) {
        request r;
        change(r);
        variants.push_back(r);
    };
    with([](request& r) { r.filter.title = "a"; });
    with([](request& r) { r.filter.title = ""; });
    with([](request& r) { r.filter.title = "a;"; });
    with([](request& r) { r.filter.price = 1; });
    with([](request& r) { r.filter.price_min = 1; });
    with([](request& r) { r.filter.price_max = 1; });
    with([](request& r) { r.filter.price_max = 1.5; });
    with([](request& r) { r.filter.category_id = 1; });
    with([](request& r) { r.filter.category_slug = "a"; });
    with([](request& r) { r.options.sort_by = sort_key::price; });
    with([](request& r) { r.options.order = sort_order::desc; });
    with([](request& r) { r.options.search_words = {"a"}; });
    with([](request& r) { r.options.search_words = {"a", "b"}; });
    with([](request& r) { r.options.search_words = {"a b"}; });
    with([](request& r) { r.options.select = {"id"}; });
    with([](request& r) { r.options.select = {"id", "title"}; });
    with([](request& r) { r.page.offset = 10; });
    with([](request& r) { r.page.limit = 20; });
    with([](request& r) { r.page = {0, static_cast<std::size_t>(-1)}; });
    // A title that spells another field's encoding is still a different request.
    with([](request& r) { r.filter.title = "1:a-"; });
    std::set<std::string> keys;
    for (const request& r : variants) {
        keys.insert(key_of(r));
    }
    BOOST_TEST(keys.size() == variants.size());
}

BOOST_AUTO_TEST_SUITE_END()
