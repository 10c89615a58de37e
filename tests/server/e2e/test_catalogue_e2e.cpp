// End to end over HTTP: products, categories and users pages on the seed data, and their bad-input table.

#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>

#include "http_client.hpp"
#include "json_helpers.hpp"
#include "test_server.hpp"

namespace json = boost::json;
using namespace storefront::test;

namespace {

void check_validation_error(const http_reply& reply, const std::string& expected_message) {
    BOOST_TEST(reply.status == 400u);
    BOOST_TEST(reply.header("content-type") == "application/json; charset=utf-8");
    const auto body = reply.json().as_object();
    BOOST_TEST(body.at("statusCode").as_int64() == 400);
    BOOST_TEST(body.at("error").as_string() == "Bad Request");
    const auto& messages = body.at("message").as_array();
    bool found = false;
    for (const auto& m : messages) {
        found = found || m.as_string() == expected_message;
    }
    BOOST_TEST(found, "message list lacks: " << expected_message << " in " << reply.body);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(products_endpoint)

BOOST_AUTO_TEST_CASE(default_page_is_first_ten_products_with_full_shape) {
    const auto reply = get(shared_server().port(), "/api/v1/products");
    BOOST_TEST(reply.status == 200u);
    BOOST_TEST(reply.header("content-type") == "application/json; charset=utf-8");
    BOOST_TEST(reply.header("access-control-allow-origin") == "*");
    BOOST_TEST(reply.header("x-content-type-options") == "nosniff");
    const auto list = reply.json();
    BOOST_TEST(ids_of(list) == range(1, 10), boost::test_tools::per_element());
    const auto& first = list.as_array().at(0).as_object();
    std::vector<std::string> keys;
    for (const auto& member : first) {
        keys.emplace_back(member.key());
    }
    const std::vector<std::string> expected_keys{
        "id",
        "title",
        "slug",
        "price",
        "stock",
        "description",
        "category",
        "images",
        "creationAt",
        "updatedAt"};
    BOOST_TEST(keys == expected_keys, boost::test_tools::per_element());
    BOOST_TEST(first.at("stock").as_int64() == 12);  // the seed's (id * 7) % 25 + 5
    BOOST_TEST(first.at("title").as_string() == "Majestic Mountain Graphic T-Shirt");
    BOOST_TEST(first.at("slug").as_string() == "majestic-mountain-graphic-t-shirt");
    BOOST_TEST(first.at("price").as_int64() == 44);  // integral prices are JSON integers, never 4.4E1
    BOOST_TEST(first.at("category").at("slug").as_string() == "clothes");
    BOOST_TEST(first.at("images").as_array().size() >= 2u);
    BOOST_TEST(std::string(first.at("creationAt").as_string()).size() == 24u);  // 2026-01-01T00:00:00.000Z
    BOOST_TEST(reply.body.find("password") == std::string::npos);
}

BOOST_AUTO_TEST_CASE(pages_follow_offset_and_limit) {
    const auto port = shared_server().port();
    BOOST_TEST(
        ids_of(get(port, "/api/v1/products?offset=40&limit=10").json()) == range(41, 50),
        boost::test_tools::per_element()
    );
    BOOST_TEST(
        ids_of(get(port, "/api/v1/products?offset=50&limit=10").json()) == range(51, 51),
        boost::test_tools::per_element()
    );
    BOOST_TEST(get(port, "/api/v1/products?offset=51").json().as_array().empty());
    BOOST_TEST(
        ids_of(get(port, "/api/v1/products?limit=100").json()) == range(1, 51),
        boost::test_tools::per_element()
    );
    BOOST_TEST(
        ids_of(get(port, "/api/v1/products?offset=0&limit=1&unknown=x").json()) == range(1, 1),
        boost::test_tools::per_element()
    );
    const auto product_42 = get(port, "/api/v1/products?offset=41&limit=1").json().as_array().at(0);
    BOOST_TEST(product_42.at("slug").as_string() == "elegant-patent-leather-peep-toe-pumps");
}

BOOST_AUTO_TEST_CASE(bad_page_parameters_are_400_with_every_problem) {
    const auto port = shared_server().port();
    const std::vector<std::pair<std::string, std::string>> table{
        {"limit=abc", "limit must be a number conforming to the specified constraints"},
        {"limit=1.5", "limit must be a number conforming to the specified constraints"},
        {"limit=", "limit must be a number conforming to the specified constraints"},
        {"limit=0", "limit must not be less than 1"},
        {"limit=-3", "limit must not be less than 1"},
        {"limit=101", "limit must not be greater than 100"},
        {"offset=-1", "offset must not be less than 0"},
        {"offset=x", "offset must be a number conforming to the specified constraints"},
        {"offset=1&offset=2", "offset must be given at most once"},
        {"limit=5&limit=5", "limit must be given at most once"},
    };
    for (const auto& [query, message] : table) {
        for (const std::string path : {"/api/v1/products?", "/api/v1/users?"}) {
            BOOST_TEST_CONTEXT(path + query) {
                check_validation_error(get(port, path + query), message);
            }
        }
    }
    const auto both = get(port, "/api/v1/products?offset=-1&limit=500").json();
    BOOST_TEST(both.at("message").as_array().size() == 2u);
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(categories_endpoint)

BOOST_AUTO_TEST_CASE(lists_the_five_seed_categories) {
    const auto reply = get(shared_server().port(), "/api/v1/categories");
    BOOST_TEST(reply.status == 200u);
    const auto list = reply.json().as_array();
    BOOST_TEST(ids_of(reply.json()) == range(1, 5), boost::test_tools::per_element());
    const std::vector<std::string> slugs{"clothes", "electronics", "furniture", "shoes", "miscellaneous"};
    for (std::size_t i = 0; i < slugs.size(); ++i) {
        BOOST_TEST(list.at(i).at("slug").as_string() == slugs[i]);
        const std::string image(list.at(i).at("image").as_string());  // storefront's own picture
        BOOST_TEST(image.rfind("http://127.0.0.1:", 0) == 0u);
        BOOST_TEST(image.ends_with("/api/v1/images/categories/" + std::to_string(i + 1) + ".png"));
    }
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(users_endpoint)

BOOST_AUTO_TEST_CASE(lists_seed_users_without_passwords) {
    const auto reply = get(shared_server().port(), "/api/v1/users?limit=10");
    BOOST_TEST(reply.status == 200u);
    const auto list = reply.json().as_array();
    BOOST_TEST(list.size() == 3u);
    BOOST_TEST(list.at(0).at("email").as_string() == "john@mail.com");
    BOOST_TEST(list.at(0).at("name").as_string() == "Jhon");
    BOOST_TEST(list.at(2).at("role").as_string() == "admin");
    BOOST_TEST(reply.body.find("password") == std::string::npos);
    BOOST_TEST(reply.body.find("argon2") == std::string::npos);
    BOOST_TEST(reply.body.find("changeme") == std::string::npos);
    BOOST_TEST(
        ids_of(get(shared_server().port(), "/api/v1/users?offset=1&limit=1").json()) == range(2, 2),
        boost::test_tools::per_element()
    );
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(email_availability)

BOOST_AUTO_TEST_CASE(taken_and_free_addresses) {
    const auto port = shared_server().port();
    const auto taken = post_json(port, "/api/v1/users/is-available", R"({"email":"john@mail.com"})");
    BOOST_TEST(taken.status == 200u);
    BOOST_TEST(taken.body == R"({"isAvailable":false})");
    const auto taken_upper = post_json(port, "/api/v1/users/is-available", R"({"email":"  JOHN@Mail.COM "})");
    BOOST_TEST(taken_upper.body == R"({"isAvailable":false})");
    const auto free = post_json(port, "/api/v1/users/is-available", R"({"email":"newcomer@example.org"})");
    BOOST_TEST(free.status == 200u);
    BOOST_TEST(free.body == R"({"isAvailable":true})");
    const auto form = send_request(
        port,
        {.method = "POST",
         .target = "/api/v1/users/is-available",
         .body = "email=maria%40mail.com",
         .content_type = "application/x-www-form-urlencoded"}
    );
    BOOST_TEST(form.status == 200u);
    BOOST_TEST(form.body == R"({"isAvailable":false})");
}

BOOST_AUTO_TEST_CASE(bad_bodies_get_clear_4xx) {
    const auto port = shared_server().port();
    const std::string path = "/api/v1/users/is-available";
    check_validation_error(post_json(port, path, "{}"), "email should not be empty");
    check_validation_error(post_json(port, path, R"({"email":42})"), "email must be a string");
    check_validation_error(post_json(port, path, R"({"email":"not-an-email"})"), "email must be an email");
    check_validation_error(post_json(port, path, R"({"email":"a@b"})"), "email must be an email");
    check_validation_error(
        send_request(port, {.method = "POST", .target = path}), "email should not be empty"
    );

    const auto malformed = post_json(port, path, R"({"email": )");
    BOOST_TEST(malformed.status == 400u);
    BOOST_TEST(malformed.json().at("message").is_string());
    BOOST_TEST(malformed.json().at("statusCode").as_int64() == 400);

    const auto not_object = post_json(port, path, R"(["john@mail.com"])");
    BOOST_TEST(not_object.status == 400u);
    BOOST_TEST(not_object.json().at("message").as_string() == "Request body must be a JSON object");

    const auto wrong_type = send_request(
        port, {.method = "POST", .target = path, .body = "email=john@mail.com", .content_type = "text/plain"}
    );
    BOOST_TEST(wrong_type.status == 415u);
    BOOST_TEST(wrong_type.json().at("statusCode").as_int64() == 415);

    const auto duplicated = send_request(
        port,
        {.method = "POST",
         .target = path,
         .body = "email=a%40b.com&email=c%40d.com",
         .content_type = "application/x-www-form-urlencoded"}
    );
    BOOST_TEST(duplicated.status == 400u);

    const auto oversized = post_json(port, path, R"({"email":")" + std::string(70 * 1024, 'a') + R"("})");
    BOOST_TEST(oversized.status == 413u);
    BOOST_TEST(oversized.json().at("statusCode").as_int64() == 413);
    BOOST_TEST(oversized.connection_closed);

    // Nothing changed: the taken address is still taken, a free one still free.
    BOOST_TEST(post_json(port, path, R"({"email":"john@mail.com"})").body == R"({"isAvailable":false})");
}

BOOST_AUTO_TEST_SUITE_END()
