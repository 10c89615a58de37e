// Tests for the shared list parameters: every accepted form of sortBy/order/q/select per kind, and every
// refused value with its exact message.
#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

#include <boost/test/unit_test.hpp>

#include "core/list_options.hpp"
#include "query_text.hpp"

using namespace storefront::core;

namespace {

std::string describe(list_kind kind, const query_params& params) {
    const std::string list = kind == list_kind::products     ? "products"
                             : kind == list_kind::categories ? "categories"
                                                             : "users";
    return list + storefront::test::describe(params);
}

const char* const product_sorts = "sortBy must be one of: id, title, price, creationAt, updatedAt";
const char* const category_sorts = "sortBy must be one of: id, name";
const char* const user_sorts = "sortBy must be one of: id, name, email";
const char* const orders = "order must be one of: asc, desc";
const char* const product_selects =
    "select must be a comma-separated list of: id, title, slug, price, stock, description, category, "
    "images, "
    "creationAt, updatedAt";
const char* const category_selects =
    "select must be a comma-separated list of: id, name, slug, image, creationAt, updatedAt";
const char* const user_selects =
    "select must be a comma-separated list of: id, email, name, role, avatar, creationAt, updatedAt";

}  // namespace

BOOST_AUTO_TEST_SUITE(list_options_parse)

BOOST_AUTO_TEST_CASE(sort_accepted_table) {
    struct row {
        list_kind kind;
        query_params params;
        sort_key key;
        sort_order order;
    };
    const std::vector<row> rows = {
        {list_kind::products, {}, sort_key::id, sort_order::asc},
        {list_kind::products, {{"sortBy", "id"}}, sort_key::id, sort_order::asc},
        {list_kind::products, {{"sortBy", "title"}}, sort_key::title, sort_order::asc},
        {list_kind::products, {{"sortBy", "price"}, {"order", "desc"}}, sort_key::price, sort_order::desc},
        {list_kind::products, {{"sortBy", "creationAt"}}, sort_key::creation_at, sort_order::asc},
        {list_kind::products,
         {{"sortBy", "updatedAt"}, {"order", "asc"}},
         sort_key::updated_at,
         sort_order::asc},
        {list_kind::products, {{"order", "desc"}}, sort_key::id, sort_order::desc},
        {list_kind::categories, {{"sortBy", "id"}}, sort_key::id, sort_order::asc},
        {list_kind::categories, {{"sortBy", "name"}, {"order", "desc"}}, sort_key::name, sort_order::desc},
        {list_kind::users, {{"sortBy", "id"}, {"order", "desc"}}, sort_key::id, sort_order::desc},
        {list_kind::users, {{"sortBy", "name"}}, sort_key::name, sort_order::asc},
        {list_kind::users, {{"sortBy", "email"}}, sort_key::email, sort_order::asc},
        // Other parameters are not this parser's business.
        {list_kind::users,
         {{"offset", "x"}, {"sortBy", "email"}, {"limit", "-1"}},
         sort_key::email,
         sort_order::asc},
    };
    for (const auto& r : rows) {
        BOOST_TEST_CONTEXT(describe(r.kind, r.params)) {
            const auto got = parse_list_options(r.kind, r.params);
            BOOST_TEST_REQUIRE(got.has_value());
            BOOST_TEST((got->sort_by == r.key));
            BOOST_TEST((got->order == r.order));
            BOOST_TEST(got->search_words.empty());
            BOOST_TEST(got->select.empty());
        }
    }
}

BOOST_AUTO_TEST_CASE(search_words_table) {
    struct row {
        std::string q;
        std::vector<std::string> words;
    };
    const std::vector<row> rows = {
        {"", {}},
        {"   ", {}},
        {"\t\n", {}},
        {"shirt", {"shirt"}},
        {"Classic SHIRT", {"classic", "shirt"}},
        {"  red\tclassic\n shirt  ", {"red", "classic", "shirt"}},
        {"a  a", {"a", "a"}},
        {"Ünïcode Café", {"Ünïcode", "café"}},  // only ASCII letters are folded
        {"50%", {"50%"}},
    };
    for (const auto& r : rows) {
        BOOST_TEST_CONTEXT("q=\"" << r.q << "\"") {
            const auto got = parse_list_options(list_kind::products, {{"q", r.q}});
            BOOST_TEST_REQUIRE(got.has_value());
            BOOST_TEST(got->search_words == r.words, boost::test_tools::per_element());
        }
    }
}

BOOST_AUTO_TEST_CASE(select_accepted_table) {
    struct row {
        list_kind kind;
        std::string select;
        std::vector<std::string> fields;
    };
    const std::vector<row> rows = {
        {list_kind::products, "title,price", {"id", "title", "price"}},
        {list_kind::products,
         "price,title",
         {"id", "title", "price"}},  // the kind's order, not the request's
        {list_kind::products, "id", {"id"}},
        {list_kind::products, "title,title,id", {"id", "title"}},
        {list_kind::products, " title , price ", {"id", "title", "price"}},
        {list_kind::products,
         "updatedAt,creationAt,images,category,description,price,slug,title,id",
         {"id", "title", "slug", "price", "description", "category", "images", "creationAt", "updatedAt"}},
        {list_kind::categories, "name,image", {"id", "name", "image"}},
        {list_kind::categories, "slug,creationAt,updatedAt", {"id", "slug", "creationAt", "updatedAt"}},
        {list_kind::users, "email", {"id", "email"}},
        {list_kind::users, "avatar,role,name", {"id", "name", "role", "avatar"}},
    };
    for (const auto& r : rows) {
        BOOST_TEST_CONTEXT(describe(r.kind, {{"select", r.select}})) {
            const auto got = parse_list_options(r.kind, {{"select", r.select}});
            BOOST_TEST_REQUIRE(got.has_value());
            BOOST_TEST(got->select == r.fields, boost::test_tools::per_element());
            for (const auto& field : json_fields_of(r.kind)) {
                const bool expected = std::find(r.fields.begin(), r.fields.end(), field) != r.fields.end();
                BOOST_TEST(got->selects(field) == expected, field);
            }
        }
    }
}

BOOST_AUTO_TEST_CASE(no_select_selects_everything) {
    const auto got = parse_list_options(list_kind::products, {});
    BOOST_TEST_REQUIRE(got.has_value());
    for (const auto& field : json_fields_of(list_kind::products)) {
        BOOST_TEST(got->selects(field), field);
    }
}

BOOST_AUTO_TEST_CASE(rejected_table) {
    struct row {
        list_kind kind;
        query_params params;
        std::vector<std::string> messages;
    };
    const std::vector<row> rows = {
        // sortBy: unknown, another kind's field, wrong case, empty, repeated.
        {list_kind::products, {{"sortBy", "name"}}, {product_sorts}},
        {list_kind::products, {{"sortBy", "email"}}, {product_sorts}},
        {list_kind::products, {{"sortBy", "Title"}}, {product_sorts}},
        {list_kind::products, {{"sortBy", "creationat"}}, {product_sorts}},
        {list_kind::products, {{"sortBy", "description"}}, {product_sorts}},
        {list_kind::products, {{"sortBy", "category"}}, {product_sorts}},
        {list_kind::products, {{"sortBy", ""}}, {product_sorts}},
        {list_kind::products, {{"sortBy", " title"}}, {product_sorts}},
        {list_kind::products, {{"sortBy", "title,price"}}, {product_sorts}},
        {list_kind::products, {{"sortBy", "id"}, {"sortBy", "title"}}, {"sortBy must be given at most once"}},
        {list_kind::categories, {{"sortBy", "title"}}, {category_sorts}},
        {list_kind::categories, {{"sortBy", "slug"}}, {category_sorts}},
        {list_kind::categories, {{"sortBy", "price"}}, {category_sorts}},
        {list_kind::users, {{"sortBy", "title"}}, {user_sorts}},
        {list_kind::users, {{"sortBy", "password"}}, {user_sorts}},
        {list_kind::users, {{"sortBy", "role"}}, {user_sorts}},
        // order: anything but asc or desc, case-sensitive.
        {list_kind::products, {{"order", "ASC"}}, {orders}},
        {list_kind::products, {{"order", "Desc"}}, {orders}},
        {list_kind::products, {{"order", "descending"}}, {orders}},
        {list_kind::products, {{"order", "-1"}}, {orders}},
        {list_kind::products, {{"order", ""}}, {orders}},
        {list_kind::products, {{"order", "asc "}}, {orders}},
        {list_kind::users, {{"order", "up"}}, {orders}},
        {list_kind::categories, {{"order", "asc"}, {"order", "asc"}}, {"order must be given at most once"}},
        // q: only repetition is wrong.
        {list_kind::products, {{"q", "a"}, {"q", "b"}}, {"q must be given at most once"}},
        // select: unknown, another kind's field, wrong case, empty items, repeated.
        {list_kind::products, {{"select", "name"}}, {product_selects}},
        {list_kind::products, {{"select", "title,colour"}}, {product_selects}},
        {list_kind::products, {{"select", "Title"}}, {product_selects}},
        {list_kind::products, {{"select", ""}}, {product_selects}},
        {list_kind::products, {{"select", ","}}, {product_selects}},
        {list_kind::products, {{"select", "title,"}}, {product_selects}},
        {list_kind::products, {{"select", ",title"}}, {product_selects}},
        {list_kind::products, {{"select", "title,,price"}}, {product_selects}},
        {list_kind::products, {{"select", "category.name"}}, {product_selects}},
        {list_kind::products, {{"select", "title price"}}, {product_selects}},
        {list_kind::products, {{"select", "id"}, {"select", "title"}}, {"select must be given at most once"}},
        {list_kind::categories, {{"select", "title"}}, {category_selects}},
        {list_kind::categories, {{"select", "images"}}, {category_selects}},
        {list_kind::users, {{"select", "password"}}, {user_selects}},
        {list_kind::users, {{"select", "title"}}, {user_selects}},
        // Every problem at once, in parameter order sortBy, order, q, select.
        {list_kind::products,
         {{"select", "x"}, {"order", "up"}, {"sortBy", "x"}, {"q", "a"}, {"q", "b"}},
         {product_sorts, orders, "q must be given at most once", product_selects}},
        {list_kind::users,
         {{"sortBy", "a"}, {"sortBy", "b"}, {"order", "x"}},
         {"sortBy must be given at most once", orders}},
    };
    for (const auto& r : rows) {
        BOOST_TEST_CONTEXT(describe(r.kind, r.params)) {
            const auto got = parse_list_options(r.kind, r.params);
            BOOST_TEST_REQUIRE(got.has_error());
            BOOST_TEST(got.error().messages == r.messages, boost::test_tools::per_element());
        }
    }
}

BOOST_AUTO_TEST_CASE(allowed_values_per_kind) {
    const std::vector<std::string_view> products{"id", "title", "price", "creationAt", "updatedAt"};
    const std::vector<std::string_view> categories{"id", "name"};
    const std::vector<std::string_view> users{"id", "name", "email"};
    BOOST_TEST(sort_fields_of(list_kind::products) == products, boost::test_tools::per_element());
    BOOST_TEST(sort_fields_of(list_kind::categories) == categories, boost::test_tools::per_element());
    BOOST_TEST(sort_fields_of(list_kind::users) == users, boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(plain_only_without_sort_search_or_select) {
    struct row {
        query_params params;
        bool plain;
    };
    const std::vector<row> rows = {
        {{}, true},
        {{{"sortBy", "id"}}, true},
        {{{"sortBy", "id"}, {"order", "asc"}}, true},
        {{{"q", ""}}, true},
        {{{"q", "  "}}, true},
        {{{"offset", "3"}, {"title", "x"}}, true},
        {{{"sortBy", "price"}}, false},
        {{{"order", "desc"}}, false},
        {{{"q", "hoodie"}}, false},
        {{{"select", "id"}}, false},
        {{{"select", "title"}}, false},
    };
    for (const auto& r : rows) {
        BOOST_TEST_CONTEXT(describe(list_kind::products, r.params)) {
            const auto got = parse_list_options(list_kind::products, r.params);
            BOOST_TEST_REQUIRE(got.has_value());
            BOOST_TEST(got->plain() == r.plain);
        }
    }
}

BOOST_AUTO_TEST_CASE(select_alone_for_single_items) {
    struct row {
        list_kind kind;
        query_params params;
        std::vector<std::string> fields;  // when accepted
        std::vector<std::string> messages;
    };
    const std::vector<row> rows = {
        {list_kind::products, {}, {}, {}},
        {list_kind::products, {{"sortBy", "nothing"}, {"order", "x"}, {"q", "a"}, {"q", "b"}}, {}, {}},
        {list_kind::products, {{"select", "price,title"}}, {"id", "title", "price"}, {}},
        {list_kind::categories, {{"select", "image"}}, {"id", "image"}, {}},
        {list_kind::users, {{"select", "email , name"}}, {"id", "email", "name"}, {}},
        {list_kind::users, {{"select", "password"}}, {}, {user_selects}},
        {list_kind::products, {{"select", ""}}, {}, {product_selects}},
        {list_kind::categories,
         {{"select", "name"}, {"select", "image"}},
         {},
         {"select must be given at most once"}},
    };
    for (const auto& r : rows) {
        BOOST_TEST_CONTEXT(describe(r.kind, r.params)) {
            const auto got = parse_select(r.kind, r.params);
            if (r.messages.empty()) {
                BOOST_TEST_REQUIRE(got.has_value());
                BOOST_TEST(*got == r.fields, boost::test_tools::per_element());
            } else {
                BOOST_TEST_REQUIRE(got.has_error());
                BOOST_TEST(got.error().messages == r.messages, boost::test_tools::per_element());
            }
        }
    }
}

BOOST_AUTO_TEST_SUITE_END()
