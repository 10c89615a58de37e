// End to end over HTTP on fresh servers: create/update/delete of products, categories and users (JSON and
// form bodies), registration then login, seed protection, both write policies with seed and registered
// tokens, and caches that show every acknowledged write to the very next read on any thread.

#include <atomic>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>

#include "http_client.hpp"
#include "json_helpers.hpp"
#include "test_server.hpp"

namespace json = boost::json;
using namespace storefront;
using namespace storefront::test;

namespace {

server::server_config config_with(core::write_policy policy) {
    auto c = test_config();
    c.write_policy = policy;
    c.storage.generated_locations = 1000;
    return c;
}

// A server of its own, so writes do not disturb the read-only tests on the shared one.
struct open_server {
    running_server server{config_with(core::write_policy::open)};
    std::uint16_t port() const { return const_cast<running_server&>(server).port(); }
};

struct roles_server {
    running_server server{config_with(core::write_policy::roles)};
    std::uint16_t port() const { return const_cast<running_server&>(server).port(); }
};

http_reply send_json(
    std::uint16_t port,
    const std::string& method,
    const std::string& target,
    const std::string& body,
    const std::string& token = {}
) {
    http_request_spec spec{
        .method = method, .target = target, .body = body, .content_type = "application/json"};
    if (!token.empty()) {
        spec.headers.emplace_back("Authorization", "Bearer " + token);
    }
    return send_request(port, spec);
}

http_reply send_delete(std::uint16_t port, const std::string& target, const std::string& token = {}) {
    http_request_spec spec{.method = "DELETE", .target = target};
    if (!token.empty()) {
        spec.headers.emplace_back("Authorization", "Bearer " + token);
    }
    return send_request(port, spec);
}

std::string login(std::uint16_t port, const std::string& email, const std::string& password) {
    const auto reply = post_json(
        port, "/api/v1/auth/login", R"({"email":")" + email + R"(","password":")" + password + R"("})"
    );
    BOOST_TEST_REQUIRE(reply.status == 201u);
    return std::string(reply.json().at("access_token").as_string());
}

std::string product_body(const std::string& title, int category = 2) {
    return R"({"title":")" + title + R"(","price":12.5,"description":"A mug","categoryId":)" +
           std::to_string(category) + R"(,"images":["https://placehold.co/600x400"]})";
}

std::string user_body(const std::string& email, const std::string& role = "") {
    return R"({"name":"New","email":")" + email +
           R"(","password":"secret123","avatar":"https://x.com/a.png")" +
           (role.empty() ? "" : R"(,"role":")" + role + "\"") + "}";
}

}  // namespace

BOOST_AUTO_TEST_SUITE(catalogue_writes_open_policy)

BOOST_FIXTURE_TEST_CASE(product_lifecycle, open_server) {
    const auto created = send_json(port(), "POST", "/api/v1/products", product_body("Blue Mug"));
    BOOST_TEST_REQUIRE(created.status == 201u);
    const auto product = created.json().as_object();
    const auto id = product.at("id").as_int64();
    BOOST_TEST(id == 52);
    BOOST_TEST(product.at("slug").as_string() == "blue-mug");
    BOOST_TEST(product.at("category").at("name").as_string() == "Electronics");
    BOOST_TEST(product.at("images").as_array().size() == 1u);

    // Visible at once: by id, by slug, in the cached pages and in the filters.
    BOOST_TEST(get(port(), "/api/v1/products/52").status == 200u);
    BOOST_TEST(get(port(), "/api/v1/products/slug/blue-mug").json().at("id").as_int64() == 52);
    BOOST_TEST(
        ids_of(get(port(), "/api/v1/products?offset=50&limit=10").json()) ==
        (std::vector<std::int64_t>{51, 52})
    );
    BOOST_TEST(
        ids_of(get(port(), "/api/v1/products?title=blue%20mug").json()) == std::vector<std::int64_t>{52}
    );

    const auto duplicate = send_json(port(), "POST", "/api/v1/products", product_body("Blue  MUG"));
    BOOST_TEST(duplicate.status == 409u);
    BOOST_TEST(
        duplicate.body ==
        R"({"message":"A product with slug \"blue-mug\" already exists","error":"Conflict","statusCode":409})"
    );

    const auto updated = send_json(port(), "PUT", "/api/v1/products/52", R"({"price":20,"categoryId":4})");
    BOOST_TEST_REQUIRE(updated.status == 200u);
    BOOST_TEST(updated.json().at("price").as_int64() == 20);
    BOOST_TEST(updated.json().at("title").as_string() == "Blue Mug");
    BOOST_TEST(updated.json().at("category").at("slug").as_string() == "shoes");
    const auto bad_category = send_json(port(), "PUT", "/api/v1/products/52", R"({"categoryId":99})");
    BOOST_TEST(bad_category.status == 400u);
    BOOST_TEST(bad_category.json().at("message").as_string() == "Category 99 not found");
    BOOST_TEST(send_json(port(), "PUT", "/api/v1/products/999", R"({"price":1})").status == 404u);

    const auto removed = send_delete(port(), "/api/v1/products/52");
    BOOST_TEST(removed.status == 200u);
    BOOST_TEST(removed.body == "true");
    BOOST_TEST(get(port(), "/api/v1/products/52").status == 404u);
    BOOST_TEST(send_delete(port(), "/api/v1/products/52").status == 404u);
    BOOST_TEST(ids_of(get(port(), "/api/v1/products?offset=50").json()) == std::vector<std::int64_t>{51});
}

BOOST_FIXTURE_TEST_CASE(form_bodies_create_too, open_server) {
    const auto created = send_request(
        port(),
        {.method = "POST",
         .target = "/api/v1/products",
         .body = "title=Form+Lamp&price=9.99&description=Bright&categoryId=3&images[]=https%3A%2F%2Fx.com%"
                 "2F1.png&images[]=https%3A%2F%2Fx.com%2F2.png",
         .content_type = "application/x-www-form-urlencoded"}
    );
    BOOST_TEST_REQUIRE(created.status == 201u);
    BOOST_TEST(created.json().at("price").as_double() == 9.99);
    BOOST_TEST(created.json().at("images").as_array().size() == 2u);
    BOOST_TEST(created.json().at("category").at("id").as_int64() == 3);
}

BOOST_FIXTURE_TEST_CASE(bad_product_bodies_change_nothing, open_server) {
    struct row {
        std::string body;
        std::string first_message;
    };
    const std::vector<row> rows{
        {"{}", "title should not be empty"},
        {R"({"title":"T","price":-1,"description":"d","categoryId":1,"images":["https://x.com/a.png"]})",
         "price must be a positive number"},
        {R"({"title":"T","price":1,"description":"d","categoryId":"1","images":["https://x.com/a.png"]})",
         "categoryId must be a number conforming to the specified constraints"},
        {R"({"title":"T","price":1,"description":"d","categoryId":1,"images":"https://x.com/a.png"})",
         "images must be an array"},
        {R"({"title":"T","price":1,"description":"d","categoryId":1,"images":[]})",
         "images must contain at least 1 elements"},
        {R"({"title":"T","price":1,"description":"d","categoryId":1,"images":["notaurl"]})",
         "each value in images must be a URL address"},
    };
    for (const auto& r : rows) {
        BOOST_TEST_CONTEXT(r.body) {
            const auto reply = send_json(port(), "POST", "/api/v1/products", r.body);
            BOOST_TEST(reply.status == 400u);
            BOOST_TEST(reply.json().at("error").as_string() == "Bad Request");
            BOOST_TEST(reply.json().at("message").as_array().at(0).as_string() == r.first_message);
        }
    }
    const auto unknown_category = send_json(port(), "POST", "/api/v1/products", product_body("Ghost", 99));
    BOOST_TEST(unknown_category.status == 400u);
    BOOST_TEST(unknown_category.json().at("message").as_string() == "Category 99 not found");
    const auto text = send_request(
        port(), {.method = "POST", .target = "/api/v1/products", .body = "x", .content_type = "text/plain"}
    );
    BOOST_TEST(text.status == 415u);
    BOOST_TEST(send_json(port(), "POST", "/api/v1/products", "{not json").status == 400u);
    BOOST_TEST(get(port(), "/api/v1/products/52").status == 404u);
    BOOST_TEST(get(port(), "/api/v1/products?offset=51").body == "[]");
}

BOOST_FIXTURE_TEST_CASE(seed_rows_are_read_only, open_server) {
    const auto product = send_json(port(), "PUT", "/api/v1/products/1", R"({"price":1})");
    BOOST_TEST(product.status == 403u);
    BOOST_TEST(
        product.body ==
        R"({"message":"Seed data is read-only; create your own product to change it","error":"Forbidden","statusCode":403})"
    );
    BOOST_TEST(send_delete(port(), "/api/v1/products/1").status == 403u);
    BOOST_TEST(send_delete(port(), "/api/v1/categories/1").status == 403u);
    BOOST_TEST(send_json(port(), "PUT", "/api/v1/categories/2", R"({"name":"X"})").status == 403u);
    const auto user_update = send_json(port(), "PUT", "/api/v1/users/1", R"({"name":"X"})");
    BOOST_TEST(user_update.status == 401u);
    BOOST_TEST(
        user_update.json().at("message").as_string() ==
        "This user is not available for updating; instead, create your own user to update."
    );
    const auto user_delete = send_delete(port(), "/api/v1/users/3");
    BOOST_TEST(user_delete.status == 401u);
    BOOST_TEST(
        user_delete.json().at("message").as_string() ==
        "This user is not available for deleting; instead, create your own user to delete."
    );
    BOOST_TEST(get(port(), "/api/v1/products/1").json().at("price").as_int64() == 44);
}

BOOST_FIXTURE_TEST_CASE(category_lifecycle, open_server) {
    const auto created =
        send_json(port(), "POST", "/api/v1/categories", R"({"name":"Toys","image":"https://x.com/t.png"})");
    BOOST_TEST_REQUIRE(created.status == 201u);
    BOOST_TEST(created.json().at("id").as_int64() == 6);
    BOOST_TEST(created.json().at("slug").as_string() == "toys");
    BOOST_TEST(get(port(), "/api/v1/categories").json().as_array().size() == 6u);
    BOOST_TEST(
        send_json(port(), "POST", "/api/v1/categories", R"({"name":"toys","image":"https://x.com/t.png"})")
            .status == 409u
    );
    const auto bad = send_json(port(), "POST", "/api/v1/categories", R"({"name":"","image":"notaurl"})");
    BOOST_TEST(bad.status == 400u);
    BOOST_TEST(bad.json().at("message").as_array().size() == 2u);

    BOOST_TEST_REQUIRE(send_json(port(), "POST", "/api/v1/products", product_body("Ball", 6)).status == 201u);
    const auto renamed = send_json(port(), "PUT", "/api/v1/categories/6", R"({"name":"Games"})");
    BOOST_TEST(renamed.json().at("slug").as_string() == "games");
    BOOST_TEST(get(port(), "/api/v1/products/52").json().at("category").at("name").as_string() == "Games");
    BOOST_TEST(ids_of(get(port(), "/api/v1/categories/6/products").json()) == std::vector<std::int64_t>{52});

    const auto in_use = send_delete(port(), "/api/v1/categories/6");
    BOOST_TEST(in_use.status == 409u);
    BOOST_TEST(in_use.json().at("message").as_string() == "Category 6 still has 1 product");
    BOOST_TEST(send_delete(port(), "/api/v1/products/52").status == 200u);
    BOOST_TEST(send_delete(port(), "/api/v1/categories/6").body == "true");
    BOOST_TEST(get(port(), "/api/v1/categories/6").status == 404u);
    BOOST_TEST(get(port(), "/api/v1/categories").json().as_array().size() == 5u);
}

BOOST_FIXTURE_TEST_CASE(registration_then_login_update_delete, open_server) {
    const auto created = send_json(port(), "POST", "/api/v1/users", user_body("New.Person@Example.com"));
    BOOST_TEST_REQUIRE(created.status == 201u);
    const auto doc = created.json();
    const auto& user = doc.as_object();
    BOOST_TEST(user.at("id").as_int64() == 4);
    BOOST_TEST(user.at("role").as_string() == "customer");
    BOOST_TEST(!user.contains("password"));
    BOOST_TEST(created.body.find("secret123") == std::string::npos);

    const auto token = login(port(), "new.person@example.com", "secret123");
    const auto profile = send_request(
        port(), {.target = "/api/v1/auth/profile", .headers = {{"Authorization", "Bearer " + token}}}
    );
    BOOST_TEST(profile.json().at("id").as_int64() == 4);
    BOOST_TEST(
        post_json(port(), "/api/v1/users/is-available", R"({"email":"NEW.person@example.com"})").body ==
        R"({"isAvailable":false})"
    );
    const auto duplicate = send_json(port(), "POST", "/api/v1/users", user_body("new.person@EXAMPLE.com"));
    BOOST_TEST(duplicate.status == 409u);
    BOOST_TEST(get(port(), "/api/v1/users?offset=3").json().as_array().size() == 1u);

    const auto bad = send_json(
        port(), "POST", "/api/v1/users", R"({"email":"x","password":"a-b","name":"","avatar":"no"})"
    );
    BOOST_TEST(bad.status == 400u);
    BOOST_TEST(bad.json().at("message").as_array().at(0).as_string() == "email must be an email");

    // A name change stays open; a password change needs the account's own token (issue 45).
    BOOST_TEST(send_json(port(), "PUT", "/api/v1/users/4", R"({"name":"Renamed"})").status == 200u);
    BOOST_TEST(send_json(port(), "PUT", "/api/v1/users/4", R"({"password":"newpass1"})").status == 401u);
    const auto updated =
        send_json(port(), "PUT", "/api/v1/users/4", R"({"name":"Renamed","password":"newpass1"})", token);
    BOOST_TEST(updated.status == 200u);
    BOOST_TEST(updated.json().at("name").as_string() == "Renamed");
    (void)login(port(), "new.person@example.com", "newpass1");
    BOOST_TEST(
        post_json(
            port(), "/api/v1/auth/login", R"({"email":"new.person@example.com","password":"secret123"})"
        )
            .status == 401u
    );

    BOOST_TEST(send_delete(port(), "/api/v1/users/4").body == "true");
    BOOST_TEST(get(port(), "/api/v1/users/4").status == 404u);
    const auto stale = send_request(
        port(), {.target = "/api/v1/auth/profile", .headers = {{"Authorization", "Bearer " + token}}}
    );
    BOOST_TEST(stale.status == 401u);  // the account is gone
}

BOOST_FIXTURE_TEST_CASE(every_acknowledged_write_is_in_the_next_read_on_any_thread, open_server) {
    constexpr int writers = 4;
    constexpr int per_writer = 10;
    std::atomic<int> misses{0};
    std::atomic<int> failures{0};
    std::vector<std::thread> threads;
    for (int w = 0; w < writers; ++w) {
        threads.emplace_back([&, w] {
            for (int i = 0; i < per_writer; ++i) {
                const auto created = send_json(
                    port(),
                    "POST",
                    "/api/v1/products",
                    product_body("Item " + std::to_string(w) + " " + std::to_string(i))
                );
                if (created.status != 201u) {
                    ++failures;
                    continue;
                }
                const auto id = created.json().at("id").as_int64();
                const auto page = get(port(), "/api/v1/products?offset=51&limit=100");
                const auto ids = ids_of(page.json());
                if (std::find(ids.begin(), ids.end(), id) == ids.end()) {
                    ++misses;
                }
                if (get(port(), "/api/v1/products/" + std::to_string(id)).status != 200u) {
                    ++misses;
                }
            }
        });
    }
    for (auto& t : threads) {
        t.join();
    }
    BOOST_TEST(failures.load() == 0);
    BOOST_TEST(misses.load() == 0);
    BOOST_TEST(
        get(port(), "/api/v1/products?offset=51&limit=100").json().as_array().size() ==
        static_cast<std::size_t>(writers * per_writer)
    );
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(catalogue_writes_roles_policy)

BOOST_FIXTURE_TEST_CASE(catalogue_writes_need_an_admin, roles_server) {
    BOOST_TEST(send_json(port(), "POST", "/api/v1/products", product_body("Mug")).status == 401u);
    const auto customer = login(port(), "john@mail.com", "changeme");
    const auto forbidden = send_json(port(), "POST", "/api/v1/products", product_body("Mug"), customer);
    BOOST_TEST(forbidden.status == 403u);
    BOOST_TEST(forbidden.body == R"({"message":"Forbidden resource","error":"Forbidden","statusCode":403})");
    BOOST_TEST(send_delete(port(), "/api/v1/categories/1", customer).status == 403u);
    const auto admin = login(port(), "admin@mail.com", "admin123");
    BOOST_TEST(send_json(port(), "POST", "/api/v1/products", product_body("Mug"), admin).status == 201u);
    BOOST_TEST(
        send_json(port(), "PUT", "/api/v1/products/1", R"({"price":1})", admin).status == 403u
    );  // seed
    BOOST_TEST(
        send_json(
            port(), "POST", "/api/v1/categories", R"({"name":"Toys","image":"https://x.com/t.png"})", admin
        )
            .status == 201u
    );
    // Reads stay public.
    BOOST_TEST(get(port(), "/api/v1/products/52").status == 200u);
}

BOOST_FIXTURE_TEST_CASE(users_change_only_themselves, roles_server) {
    BOOST_TEST(send_json(port(), "POST", "/api/v1/users", user_body("a@example.com")).status == 201u);
    BOOST_TEST(send_json(port(), "POST", "/api/v1/users", user_body("b@example.com")).status == 201u);
    const auto a = login(port(), "a@example.com", "secret123");
    BOOST_TEST(send_json(port(), "PUT", "/api/v1/users/4", R"({"name":"A"})").status == 401u);
    BOOST_TEST(send_json(port(), "PUT", "/api/v1/users/4", R"({"name":"A"})", a).status == 200u);
    BOOST_TEST(send_json(port(), "PUT", "/api/v1/users/5", R"({"name":"A"})", a).status == 403u);
    BOOST_TEST(send_json(port(), "PUT", "/api/v1/users/4", R"({"role":"admin"})", a).status == 403u);
    BOOST_TEST(send_delete(port(), "/api/v1/users/5", a).status == 403u);
    const auto admin = login(port(), "admin@mail.com", "admin123");
    BOOST_TEST(send_json(port(), "PUT", "/api/v1/users/5", R"({"role":"admin"})", admin).status == 200u);
    BOOST_TEST(send_delete(port(), "/api/v1/users/4", a).status == 200u);      // themselves
    BOOST_TEST(send_delete(port(), "/api/v1/users/1", admin).status == 401u);  // seed, even for an admin
}

BOOST_FIXTURE_TEST_CASE(admin_accounts_need_an_admin, roles_server) {
    BOOST_TEST(
        send_json(port(), "POST", "/api/v1/users", user_body("x@example.com", "admin")).status == 401u
    );
    const auto customer = login(port(), "maria@mail.com", "12345");
    BOOST_TEST(
        send_json(port(), "POST", "/api/v1/users", user_body("x@example.com", "admin"), customer).status ==
        403u
    );
    const auto admin = login(port(), "admin@mail.com", "admin123");
    const auto created =
        send_json(port(), "POST", "/api/v1/users", user_body("x@example.com", "admin"), admin);
    BOOST_TEST(created.status == 201u);
    BOOST_TEST(created.json().at("role").as_string() == "admin");
}

BOOST_AUTO_TEST_SUITE_END()
