// Tests for the lists' orderings: each sortBy field of each kind in both directions, case-insensitive
// text, ties by ascending id in both directions, and the pointer overloads giving the same order.
#include <cstdint>
#include <string>
#include <vector>

#include <boost/test/unit_test.hpp>

#include "core/list_sort.hpp"

using namespace storefront::core;

namespace {

const char* key_name(sort_key key) {
    switch (key) {
        case sort_key::id:
            return "id";
        case sort_key::title:
            return "title";
        case sort_key::price:
            return "price";
        case sort_key::creation_at:
            return "creationAt";
        case sort_key::updated_at:
            return "updatedAt";
        case sort_key::name:
            return "name";
        case sort_key::email:
            return "email";
    }
    return "?";
}

template <class Item>
std::vector<std::int64_t> ids_of(const std::vector<Item>& items) {
    std::vector<std::int64_t> ids;
    for (const auto& item : items) {
        ids.push_back(item.id);
    }
    return ids;
}

template <class Item>
std::vector<std::int64_t> ids_of(const std::vector<const Item*>& items) {
    std::vector<std::int64_t> ids;
    for (const Item* item : items) {
        ids.push_back(item->id);
    }
    return ids;
}

template <class Item>
std::vector<const Item*> pointers_to(const std::vector<Item>& items) {
    std::vector<const Item*> out;
    for (const auto& item : items) {
        out.push_back(&item);
    }
    return out;
}

product make_product(
    std::int64_t id, std::string title, double price, timestamp_ms created, timestamp_ms updated
) {
    product p;
    p.id = id;
    p.title = std::move(title);
    p.price = price;
    p.created_at = created;
    p.updated_at = updated;
    return p;
}

user make_user(std::int64_t id, std::string name, std::string email) {
    user u;
    u.id = id;
    u.name = std::move(name);
    u.email = std::move(email);
    return u;
}

category make_category(std::int64_t id, std::string name) {
    category c;
    c.id = id;
    c.name = std::move(name);
    return c;
}

struct row {
    sort_key key;
    sort_order order;
    std::vector<std::int64_t> ids;
};

template <class Item>
void check_rows(const std::vector<Item>& items, const std::vector<row>& rows) {
    for (const auto& r : rows) {
        BOOST_TEST_CONTEXT(key_name(r.key) << (r.order == sort_order::asc ? " asc" : " desc")) {
            std::vector<Item> values = items;
            sort_items(values, r.key, r.order);
            BOOST_TEST(ids_of(values) == r.ids, boost::test_tools::per_element());

            std::vector<const Item*> pointers = pointers_to(items);
            sort_items(pointers, r.key, r.order);
            BOOST_TEST(ids_of(pointers) == r.ids, boost::test_tools::per_element());
        }
    }
}

}  // namespace

BOOST_AUTO_TEST_SUITE(list_sort)

BOOST_AUTO_TEST_CASE(compare_folded_table) {
    struct cmp_row {
        std::string a;
        std::string b;
        int sign;
    };
    const std::vector<cmp_row> rows = {
        {"", "", 0},
        {"a", "A", 0},
        {"Apple", "apple", 0},
        {"apple", "Banana", -1},
        {"Banana", "apple", 1},
        {"app", "Apple", -1},  // a prefix sorts first
        {"Zebra", "zebra", 0},
        {"a", "", 1},
        {"_", "a", -1},             // '_' (0x5F) < 'a' (0x61): compared after folding, not as 'A'..'Z'
        {"Z", "_", 1},              // 'z' (0x7A) > '_'
        {"é", "z", 1},              // UTF-8 bytes sort after ASCII
        {"Item 10", "item 9", -1},  // no natural number ordering
    };
    for (const auto& r : rows) {
        BOOST_TEST_CONTEXT("\"" << r.a << "\" vs \"" << r.b << "\"") {
            const int got = compare_folded(r.a, r.b);
            BOOST_TEST((got < 0 ? -1 : got > 0 ? 1 : 0) == r.sign);
        }
    }
}

BOOST_AUTO_TEST_CASE(products_table) {
    // Titles and prices with ties, shuffled ids.
    const std::vector<product> items = {
        make_product(4, "banana", 10, 400, 1000),
        make_product(1, "Cherry", 5, 300, 1000),
        make_product(3, "apple", 10, 100, 3000),
        make_product(2, "Banana", 2.5, 200, 2000),
        make_product(5, "APPLE", 99.99, 100, 500),
    };
    const std::vector<row> rows = {
        {sort_key::id, sort_order::asc, {1, 2, 3, 4, 5}},
        {sort_key::id, sort_order::desc, {5, 4, 3, 2, 1}},
        {sort_key::title, sort_order::asc, {3, 5, 2, 4, 1}},
        {sort_key::title, sort_order::desc, {1, 2, 4, 3, 5}},  // ties still by ascending id
        {sort_key::price, sort_order::asc, {2, 1, 3, 4, 5}},
        {sort_key::price, sort_order::desc, {5, 3, 4, 1, 2}},
        {sort_key::creation_at, sort_order::asc, {3, 5, 2, 1, 4}},
        {sort_key::creation_at, sort_order::desc, {4, 1, 2, 3, 5}},
        {sort_key::updated_at, sort_order::asc, {5, 1, 4, 2, 3}},
        {sort_key::updated_at, sort_order::desc, {3, 2, 1, 4, 5}},
        // Keys products do not have order by id.
        {sort_key::name, sort_order::asc, {1, 2, 3, 4, 5}},
        {sort_key::email, sort_order::desc, {5, 4, 3, 2, 1}},
    };
    check_rows(items, rows);
}

BOOST_AUTO_TEST_CASE(categories_table) {
    const std::vector<category> items = {
        make_category(3, "shoes"),
        make_category(1, "Clothes"),
        make_category(4, "Shoes"),
        make_category(2, "electronics"),
    };
    const std::vector<row> rows = {
        {sort_key::id, sort_order::asc, {1, 2, 3, 4}},
        {sort_key::id, sort_order::desc, {4, 3, 2, 1}},
        {sort_key::name, sort_order::asc, {1, 2, 3, 4}},
        {sort_key::name, sort_order::desc, {3, 4, 2, 1}},
        {sort_key::title, sort_order::desc, {4, 3, 2, 1}},
    };
    check_rows(items, rows);
}

BOOST_AUTO_TEST_CASE(users_table) {
    const std::vector<user> items = {
        make_user(2, "bob", "Zed@mail.com"),
        make_user(1, "Alice", "alice@mail.com"),
        make_user(3, "Bob", "ann@mail.com"),
        make_user(4, "carol", "ZED@mail.com"),
    };
    const std::vector<row> rows = {
        {sort_key::id, sort_order::asc, {1, 2, 3, 4}},
        {sort_key::id, sort_order::desc, {4, 3, 2, 1}},
        {sort_key::name, sort_order::asc, {1, 2, 3, 4}},
        {sort_key::name, sort_order::desc, {4, 2, 3, 1}},
        {sort_key::email, sort_order::asc, {1, 3, 2, 4}},
        {sort_key::email, sort_order::desc, {2, 4, 3, 1}},
        {sort_key::price, sort_order::asc, {1, 2, 3, 4}},
    };
    check_rows(items, rows);
}

BOOST_AUTO_TEST_CASE(empty_and_single) {
    std::vector<product> none;
    sort_items(none, sort_key::title, sort_order::desc);
    BOOST_TEST(none.empty());
    std::vector<product> one = {make_product(7, "x", 1, 1, 1)};
    sort_items(one, sort_key::price, sort_order::desc);
    BOOST_TEST(one.front().id == 7);
}

BOOST_AUTO_TEST_SUITE_END()
