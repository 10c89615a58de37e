// Tests for the lists' word search: folded substring matching, and every word in one of the searched fields.
#include <string>
#include <vector>

#include <boost/test/unit_test.hpp>

#include "core/list_search.hpp"

using namespace storefront::core;

namespace {

std::string joined(const std::vector<std::string>& words) {
    std::string out;
    for (const auto& w : words) {
        out += (out.empty() ? "" : " ") + w;
    }
    return "[" + out + "]";
}

product make_product(std::string title, std::string description) {
    product p;
    p.id = 1;
    p.title = std::move(title);
    p.description = std::move(description);
    p.slug = "slug-not-searched";
    p.product_category.name = "Clothes";
    return p;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(list_search)

BOOST_AUTO_TEST_CASE(contains_folded_table) {
    struct row {
        std::string text;
        std::string word;
        bool found;
    };
    const std::vector<row> rows = {
        {"Classic Red Shirt", "red", true},
        {"Classic Red Shirt", "RED", true},
        {"Classic Red Shirt", "ic r", true},
        {"Classic Red Shirt", "classic red shirt", true},
        {"Classic Red Shirt", "shirts", false},
        {"Classic Red Shirt", "blue", false},
        {"Classic Red Shirt", "", true},
        {"", "", true},
        {"", "a", false},
        {"a", "ab", false},
        {"ABAB", "bab", true},
        {"aaab", "aab", true},    // a restart after a partial match
        {"Café", "CAFÉ", false},  // É is not ASCII: not folded
        {"Café", "CAFé", true},
        {"x@Example.COM", "example.com", true},
        {std::string("a\0b", 3), std::string("\0B", 2), true},
    };
    for (const auto& r : rows) {
        BOOST_TEST_CONTEXT("\"" << r.text << "\" contains \"" << r.word << "\"") {
            BOOST_TEST(contains_folded(r.text, r.word) == r.found);
        }
    }
}

BOOST_AUTO_TEST_CASE(product_table) {
    const product shirt = make_product("Classic Red Shirt", "Soft cotton, relaxed fit.");
    struct row {
        std::vector<std::string> words;
        bool matches;
    };
    const std::vector<row> rows = {
        {{}, true},
        {{"shirt"}, true},
        {{"SHIRT"}, true},
        {{"cotton"}, true},         // description only
        {{"red", "cotton"}, true},  // one word in each field
        {{"red", "shirt", "fit."}, true},
        {{"red", "blue"}, false},   // every word must match
        {{"shirt cotton"}, false},  // a word spans no field boundary
        {{"clothes"}, false},       // the category is not searched
        {{"slug"}, false},          // nor the slug
        {{"red", "red"}, true},
    };
    for (const auto& r : rows) {
        BOOST_TEST_CONTEXT(joined(r.words)) {
            BOOST_TEST(matches_search(shirt, r.words) == r.matches);
        }
    }
}

BOOST_AUTO_TEST_CASE(user_table) {
    user u;
    u.id = 3;
    u.name = "Maria Lopez";
    u.email = "maria@Mail.com";
    u.role = "admin";
    struct row {
        std::vector<std::string> words;
        bool matches;
    };
    const std::vector<row> rows = {
        {{}, true},
        {{"maria"}, true},
        {{"lopez"}, true},
        {{"mail.com"}, true},
        {{"lopez", "mail"}, true},
        {{"admin"}, false},  // the role is not searched
        {{"maria", "smith"}, false},
        {{"lopez@"}, false},
    };
    for (const auto& r : rows) {
        BOOST_TEST_CONTEXT(joined(r.words)) {
            BOOST_TEST(matches_search(u, r.words) == r.matches);
        }
    }
}

BOOST_AUTO_TEST_CASE(category_table) {
    category c;
    c.id = 2;
    c.name = "Electronics";
    c.slug = "gadgets";
    struct row {
        std::vector<std::string> words;
        bool matches;
    };
    const std::vector<row> rows = {
        {{}, true},
        {{"electro"}, true},
        {{"NICS"}, true},
        {{"gadgets"}, false},
        {{"electro", "x"}, false},
    };
    for (const auto& r : rows) {
        BOOST_TEST_CONTEXT(joined(r.words)) {
            BOOST_TEST(matches_search(c, r.words) == r.matches);
        }
    }
}

BOOST_AUTO_TEST_SUITE_END()
