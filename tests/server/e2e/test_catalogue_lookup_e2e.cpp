// End to end over HTTP, read-only on the shared seed data: products and categories by id and slug,
// related products, the product filters (catalogue.md's table), category pages and users by id.

#include <string>
#include <vector>

#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>

#include "http_client.hpp"
#include "json_helpers.hpp"
#include "test_server.hpp"

namespace json = boost::json;
using namespace storefront::test;

namespace {

const std::string numeric_expected =
    R"json({"message":"Validation failed (numeric string is expected)","error":"Bad Request","statusCode":400})json";

}  // namespace

BOOST_AUTO_TEST_SUITE(catalogue_lookups)

BOOST_AUTO_TEST_CASE(products_by_id_and_slug) {
    const auto port = shared_server().port();
    const auto one = get(port, "/api/v1/products/2");
    BOOST_TEST(one.status == 200u);
    BOOST_TEST(one.json().at("title").as_string() == "Classic Red Pullover Hoodie");
    BOOST_TEST(one.json().at("category").at("id").as_int64() == 1);
    const auto by_slug = get(port, "/api/v1/products/slug/classic-red-pullover-hoodie");
    BOOST_TEST(by_slug.status == 200u);
    BOOST_TEST(by_slug.body == one.body);
    const auto short_slug = get(port, "/api/v1/products/slug/elegant-patent-leather-peep-toe-pumps");
    BOOST_TEST(short_slug.json().at("id").as_int64() == 42);

    const auto missing = get(port, "/api/v1/products/999");
    BOOST_TEST(missing.status == 404u);
    BOOST_TEST(missing.body == R"({"message":"Product 999 not found","error":"Not Found","statusCode":404})");
    const auto missing_slug = get(port, "/api/v1/products/slug/no-such-thing");
    BOOST_TEST(missing_slug.status == 404u);
    BOOST_TEST(
        missing_slug.json().at("message").as_string() == R"(Product with slug "no-such-thing" not found)"
    );
}

BOOST_AUTO_TEST_CASE(non_integer_ids_get_the_public_400) {
    const auto port = shared_server().port();
    for (const std::string id : {"abc", "1.5", "1e3", "99999999999999999999", "0x1", "%2D"}) {
        for (const std::string path : {"/api/v1/products/", "/api/v1/categories/", "/api/v1/users/"}) {
            BOOST_TEST_CONTEXT(path + id) {
                const auto reply = get(port, path + id);
                BOOST_TEST(reply.status == 400u);
                BOOST_TEST(reply.body == numeric_expected);
            }
        }
    }
    BOOST_TEST(
        get(port, "/api/v1/products/%31").body == get(port, "/api/v1/products/1").body
    );  // escapes decode
    BOOST_TEST(get(port, "/api/v1/products/abc/related").body == numeric_expected);
    BOOST_TEST(get(port, "/api/v1/categories/abc/products").body == numeric_expected);
}

BOOST_AUTO_TEST_CASE(related_products_share_the_category) {
    const auto port = shared_server().port();
    const auto related = get(port, "/api/v1/products/2/related");
    BOOST_TEST(related.status == 200u);
    auto expected = range(1, 17);
    expected.erase(expected.begin() + 1);  // every clothes product but 2 itself
    BOOST_TEST(ids_of(related.json()) == expected, boost::test_tools::per_element());
    const auto by_slug = get(port, "/api/v1/products/slug/classic-red-pullover-hoodie/related");
    BOOST_TEST(by_slug.body == related.body);
    BOOST_TEST(get(port, "/api/v1/products/999/related").status == 404u);
    BOOST_TEST(get(port, "/api/v1/products/slug/none/related").status == 404u);
}

BOOST_AUTO_TEST_CASE(product_filters_as_catalogue_md_lists_them) {
    struct row {
        std::string query;
        std::vector<std::int64_t> ids;
    };
    const std::vector<row> rows{
        {"price=44", {1, 19}},
        {"price_min=90&price_max=100", {4, 8, 24}},
        {"title=hoodie", {2, 3}},
        {"title=HOODIE", {2, 3}},
        {"categoryId=4", range(35, 44)},
        {"price_min=50&price_max=60&offset=0&limit=2", {12, 28}},
        {"title=classic&price_min=10&price_max=50&categoryId=1", {2, 6, 11, 14, 15, 17}},
        {"categorySlug=shoes&limit=3", {35, 36, 37}},
        {"categoryId=4&categorySlug=clothes", {}},
        {"categoryId=4&offset=8", {43, 44}},
        {"title=no%20such%20product", {}},
        {"categoryId=999", {}},
    };
    const auto port = shared_server().port();
    for (const auto& r : rows) {
        BOOST_TEST_CONTEXT(r.query) {
            const auto reply = get(port, "/api/v1/products?" + r.query);
            BOOST_TEST(reply.status == 200u);
            BOOST_TEST(ids_of(reply.json()) == r.ids, boost::test_tools::per_element());
        }
    }
}

BOOST_AUTO_TEST_CASE(bad_filter_values_are_400_naming_the_parameter) {
    struct row {
        std::string query;
        std::string message;
    };
    const std::vector<row> rows{
        {"price=abc", "price must be a number conforming to the specified constraints"},
        {"price_min=-1", "price_min must not be less than 0"},
        {"price_min=9&price_max=3", "price_min must not be greater than price_max"},
        {"categoryId=x", "categoryId must be a number conforming to the specified constraints"},
        {"title=a&title=b", "title must be given at most once"},
    };
    const auto port = shared_server().port();
    for (const auto& r : rows) {
        BOOST_TEST_CONTEXT(r.query) {
            const auto reply = get(port, "/api/v1/products?" + r.query);
            BOOST_TEST(reply.status == 400u);
            BOOST_TEST(reply.json().at("message").as_array().at(0).as_string() == r.message);
        }
    }
    const auto both = get(port, "/api/v1/products?limit=0&price=x");
    BOOST_TEST(both.json().at("message").as_array().size() == 2u);  // paging and filter problems together
}

BOOST_AUTO_TEST_CASE(categories_by_id_slug_page_and_products) {
    const auto port = shared_server().port();
    const auto one = get(port, "/api/v1/categories/4");
    BOOST_TEST(one.status == 200u);
    BOOST_TEST(one.json().at("slug").as_string() == "shoes");
    BOOST_TEST(get(port, "/api/v1/categories/slug/shoes").body == one.body);
    const auto missing = get(port, "/api/v1/categories/9");
    BOOST_TEST(missing.status == 404u);
    BOOST_TEST(missing.body == R"({"message":"Category 9 not found","error":"Not Found","statusCode":404})");
    BOOST_TEST(get(port, "/api/v1/categories/slug/toys").status == 404u);

    BOOST_TEST(ids_of(get(port, "/api/v1/categories/4/products?limit=100").json()) == range(35, 44));
    BOOST_TEST(ids_of(get(port, "/api/v1/categories/4/products?offset=2&limit=2").json()) == range(37, 38));
    BOOST_TEST(
        ids_of(get(port, "/api/v1/categories/4/products").json()) == range(35, 44)
    );  // default limit 10
    BOOST_TEST(get(port, "/api/v1/categories/9/products").status == 404u);
    BOOST_TEST(get(port, "/api/v1/categories/4/products?limit=101").status == 400u);

    BOOST_TEST(ids_of(get(port, "/api/v1/categories").json()) == range(1, 5));
    BOOST_TEST(ids_of(get(port, "/api/v1/categories?offset=1&limit=2").json()) == range(2, 3));
    BOOST_TEST(ids_of(get(port, "/api/v1/categories?limit=3").json()) == range(1, 3));
    BOOST_TEST(get(port, "/api/v1/categories?limit=0").status == 400u);
}

BOOST_AUTO_TEST_CASE(users_by_id_without_passwords) {
    const auto port = shared_server().port();
    const auto one = get(port, "/api/v1/users/1");
    BOOST_TEST(one.status == 200u);
    const auto doc = one.json();
    const auto& user = doc.as_object();
    BOOST_TEST(user.at("email").as_string() == "john@mail.com");
    BOOST_TEST(!user.contains("password"));
    BOOST_TEST(one.body.find("argon2") == std::string::npos);
    const auto missing = get(port, "/api/v1/users/999");
    BOOST_TEST(missing.status == 404u);
    BOOST_TEST(missing.body == R"({"message":"User 999 not found","error":"Not Found","statusCode":404})");
}

BOOST_AUTO_TEST_SUITE_END()
