// End to end over HTTP on the real binary: --compat public (and STOREFRONT_COMPAT) against the public
// service's statuses and bodies (400 EntityNotFoundError, 201 and false from is-available, the password
// field (the sent one echoed, else an alphanumeric placeholder), 404 for a
// wrong method, whole lists for limit=0 and offset without limit), the same requests in the default mode,
// and a refused value.

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>

#include "common/child_process.hpp"
#include "http_client.hpp"
#include "json_helpers.hpp"

namespace json = boost::json;
using namespace storefront::test;

// A namespace of its own: a unity build compiles this file beside others whose helpers share names.
namespace compat_e2e_file {
namespace {

// One binary per mode, started on first use and shared by this file's cases (each case that writes
// creates its own rows).
struct instance {
    std::unique_ptr<child_process> process;
    std::uint16_t port = 0;
};

instance start(const std::vector<std::string>& extra, const std::vector<std::string>& env = {}) {
    instance out;
    out.process = std::make_unique<child_process>(instance_args("memory", extra), env);
    out.port = out.process->wait_listening(std::chrono::seconds(30));
    return out;
}

std::uint16_t compat_port() {
    static instance server = start({"--compat", "public"});
    return server.port;
}

std::uint16_t default_port() {
    static instance server = start({});
    return server.port;
}

std::vector<std::string> keys_of(const json::value& object) {
    std::vector<std::string> out;
    for (const auto& member : object.as_object()) {
        out.emplace_back(member.key());
    }
    return out;
}

http_reply send(
    std::uint16_t port,
    const std::string& method,
    const std::string& target,
    const std::string& body = {},
    std::vector<std::pair<std::string, std::string>> headers = {}
) {
    http_request_spec spec;
    spec.method = method;
    spec.target = target;
    spec.body = body;
    spec.content_type = body.empty() ? "" : "application/json";
    spec.headers = std::move(headers);
    return send_request(port, spec);
}

// "2026-11-24T17:45:00.123Z"
bool looks_like_iso8601_ms(const std::string& text) {
    if (text.size() != 24) {
        return false;
    }
    const std::string shape = "dddd-dd-ddTdd:dd:dd.dddZ";
    for (std::size_t i = 0; i < shape.size(); ++i) {
        const bool digit = text[i] >= '0' && text[i] <= '9';
        if (shape[i] == 'd' ? !digit : text[i] != shape[i]) {
            return false;
        }
    }
    return true;
}

std::string created_id(std::uint16_t port, const std::string& target, const std::string& body) {
    const http_reply reply = send(port, "POST", target, body);
    BOOST_TEST_REQUIRE(reply.status == 201u, reply.body);
    return std::to_string(reply.json().at("id").as_int64());
}

}  // namespace

BOOST_AUTO_TEST_SUITE(compat_public)

// Every not-found id and slug (reads, related lists, a category's products, updates, deletes): 400 with
// {path, timestamp, name, message} naming the entity type and the key.
BOOST_AUTO_TEST_CASE(not_found_ids_and_slugs_are_400_entity_not_found) {
    struct row {
        std::string method;
        std::string target;
        std::string body;
        std::string path;
        std::string message;
    };
    const auto by_id = [](const std::string& type, const std::string& id) {
        return "Could not find any entity of type \"" + type + "\" matching: {\n    \"id\": " + id + "\n}";
    };
    const auto by_slug = [](const std::string& type, const std::string& slug) {
        return "Could not find any entity of type \"" + type + "\" matching: {\n    \"slug\": \"" + slug +
               "\"\n}";
    };
    const std::vector<row> rows = {
        {"GET", "/api/v1/products/999", "", "/api/v1/products/999", by_id("Product", "999")},
        {"GET", "/api/v1/products/999?select=title", "", "/api/v1/products/999", by_id("Product", "999")},
        {"GET",
         "/api/v1/products/slug/no-such-thing",
         "",
         "/api/v1/products/slug/no-such-thing",
         by_slug("Product", "no-such-thing")},
        {"GET", "/api/v1/products/999/related", "", "/api/v1/products/999/related", by_id("Product", "999")},
        {"GET",
         "/api/v1/products/slug/nope/related",
         "",
         "/api/v1/products/slug/nope/related",
         by_slug("Product", "nope")},
        {"PUT", "/api/v1/products/999", R"({"price":20})", "/api/v1/products/999", by_id("Product", "999")},
        {"DELETE", "/api/v1/products/999", "", "/api/v1/products/999", by_id("Product", "999")},
        {"GET", "/api/v1/categories/999", "", "/api/v1/categories/999", by_id("Category", "999")},
        {"GET",
         "/api/v1/categories/slug/nope",
         "",
         "/api/v1/categories/slug/nope",
         by_slug("Category", "nope")},
        {"GET",
         "/api/v1/categories/999/products",
         "",
         "/api/v1/categories/999/products",
         by_id("Category", "999")},
        {"GET",
         "/api/v1/categories/999/products?limit=0",
         "",
         "/api/v1/categories/999/products",
         by_id("Category", "999")},
        {"PUT",
         "/api/v1/categories/999",
         R"({"name":"Games"})",
         "/api/v1/categories/999",
         by_id("Category", "999")},
        {"DELETE", "/api/v1/categories/999", "", "/api/v1/categories/999", by_id("Category", "999")},
        {"GET", "/api/v1/users/999", "", "/api/v1/users/999", by_id("User", "999")},
        {"PUT", "/api/v1/users/999", R"({"name":"Ana"})", "/api/v1/users/999", by_id("User", "999")},
        {"DELETE", "/api/v1/users/999", "", "/api/v1/users/999", by_id("User", "999")},
    };
    for (const auto& r : rows) {
        BOOST_TEST_CONTEXT(r.method << " " << r.target) {
            const http_reply reply = send(compat_port(), r.method, r.target, r.body);
            BOOST_TEST(reply.status == 400u);
            BOOST_TEST(reply.header("content-type") == "application/json; charset=utf-8");
            const json::value body = reply.json();
            BOOST_TEST(
                keys_of(body) == (std::vector<std::string>{"path", "timestamp", "name", "message"}),
                boost::test_tools::per_element()
            );
            BOOST_TEST(body.at("path").as_string() == r.path);
            BOOST_TEST(looks_like_iso8601_ms(std::string(body.at("timestamp").as_string())), reply.body);
            BOOST_TEST(body.at("name").as_string() == "EntityNotFoundError");
            BOOST_TEST(body.at("message").as_string() == r.message);
        }
    }
    // What is found still answers as usual, and a non-numeric id keeps its 400.
    BOOST_TEST(get(compat_port(), "/api/v1/products/1").status == 200u);
    const http_reply bad_id = get(compat_port(), "/api/v1/products/abc");
    BOOST_TEST(bad_id.status == 400u);
    BOOST_TEST(bad_id.json().at("message").as_string() == "Validation failed (numeric string is expected)");
}

// As the public service: 201 and false, taken or not (the default mode answers 200 and the truth).
BOOST_AUTO_TEST_CASE(is_available_answers_201_false) {
    struct row {
        std::string email;
        std::string body;
    };
    const std::vector<row> rows = {
        {"john@mail.com", R"({"isAvailable":false})"},
        {"nobody-yet@example.com", R"({"isAvailable":false})"},
    };
    for (const auto& r : rows) {
        BOOST_TEST_CONTEXT(r.email) {
            const http_reply reply =
                post_json(compat_port(), "/api/v1/users/is-available", R"({"email":")" + r.email + "\"}");
            BOOST_TEST(reply.status == 201u);
            BOOST_TEST(reply.body == r.body);
        }
    }
    // A bad body keeps its 400.
    BOOST_TEST(post_json(compat_port(), "/api/v1/users/is-available", "{}").status == 400u);
    const http_reply truth =
        post_json(default_port(), "/api/v1/users/is-available", R"({"email":"nobody-yet@example.com"})");
    BOOST_TEST(truth.status == 200u);
    BOOST_TEST(truth.body == R"({"isAvailable":true})");
}

// Every answer carrying a user has "password" after "email" (the public service's order): the password a
// create or update just sent, echoed in that answer; an alphanumeric placeholder everywhere else.
BOOST_AUTO_TEST_CASE(user_bodies_carry_a_password_field) {
    const std::uint16_t port = compat_port();
    const std::vector<std::string> user_keys{
        "id", "email", "password", "name", "role", "avatar", "creationAt", "updatedAt"};
    const auto check_user = [&](const json::value& user, const std::string& password = "hidden0") {
        BOOST_TEST(keys_of(user) == user_keys, boost::test_tools::per_element());
        BOOST_TEST(user.at("password").as_string() == password);
    };
    const std::string id = created_id(
        port,
        "/api/v1/users",
        R"({"name":"Masked","email":"masked@example.com","password":"secret123","avatar":"https://placehold.co/200"})"
    );
    for (const std::string target :
         {"/api/v1/users",
          "/api/v1/users?limit=2",
          "/api/v1/users?sortBy=name",
          "/api/v1/users?q=mail",
          "/api/v1/users?limit=0"}) {
        BOOST_TEST_CONTEXT(target) {
            const http_reply reply = get(port, target);
            BOOST_TEST_REQUIRE(reply.status == 200u);
            const json::value list = reply.json();
            BOOST_TEST_REQUIRE(!list.as_array().empty());
            for (const auto& user : list.as_array()) {
                check_user(user);
            }
        }
    }
    check_user(get(port, "/api/v1/users/1").json());
    check_user(get(port, "/api/v1/users/" + id).json());
    const http_reply updated = send(port, "PUT", "/api/v1/users/" + id, R"({"name":"Masked Again"})");
    BOOST_TEST_REQUIRE(updated.status == 200u);
    check_user(updated.json());  // no password sent: the placeholder
    const http_reply created = send(
        port,
        "POST",
        "/api/v1/users",
        R"({"name":"Masked 2","email":"masked2@example.com","password":"secret123","avatar":"https://placehold.co/200"})"
    );
    BOOST_TEST_REQUIRE(created.status == 201u);
    check_user(created.json(), "secret123");  // the value sent, echoed in this answer only
    BOOST_TEST(created.header("cache-control") == "no-store");
    const std::string id2 = std::to_string(created.json().at("id").as_int64());
    check_user(get(port, "/api/v1/users/" + id2).json());
    // The account's own token may send a new password: echoed in that answer, and it is the login's now.
    const http_reply own_login =
        post_json(port, "/api/v1/auth/login", R"({"email":"masked2@example.com","password":"secret123"})");
    BOOST_TEST_REQUIRE(own_login.status == 201u);
    const std::string own_token(own_login.json().at("access_token").as_string());
    const http_reply repassword = send(
        port,
        "PUT",
        "/api/v1/users/" + id2,
        R"({"password":"newSecret9"})",
        {{"Authorization", "Bearer " + own_token}}
    );
    BOOST_TEST_REQUIRE(repassword.status == 200u, repassword.body);
    check_user(repassword.json(), "newSecret9");
    check_user(get(port, "/api/v1/users/" + id2).json());
    BOOST_TEST(
        post_json(port, "/api/v1/auth/login", R"({"email":"masked2@example.com","password":"newSecret9"})")
            .status == 201u
    );
    const http_reply login =
        post_json(port, "/api/v1/auth/login", R"({"email":"masked@example.com","password":"secret123"})");
    BOOST_TEST_REQUIRE(login.status == 201u);
    const std::string token(login.json().at("access_token").as_string());
    const http_reply profile =
        send(port, "GET", "/api/v1/auth/profile", "", {{"Authorization", "Bearer " + token}});
    BOOST_TEST_REQUIRE(profile.status == 200u);
    check_user(profile.json());
    // Never the real password nor its hash elsewhere, and `select` answers only what it names.
    const std::string listed = get(port, "/api/v1/users?limit=0").body;
    BOOST_TEST(listed.find("secret123") == std::string::npos);
    BOOST_TEST(listed.find("newSecret9") == std::string::npos);
    BOOST_TEST(listed.find("$argon2") == std::string::npos);
    // The default mode carries no password field at all, not even in the answer to a create.
    const http_reply plain = send(
        default_port(),
        "POST",
        "/api/v1/users",
        R"({"name":"Plain","email":"plain@example.com","password":"secret123","avatar":"https://placehold.co/200"})"
    );
    BOOST_TEST_REQUIRE(plain.status == 201u);
    BOOST_TEST(!plain.json().as_object().contains("password"));
    const json::value selected = get(port, "/api/v1/users/1?select=name").json();
    BOOST_TEST(
        keys_of(selected) == (std::vector<std::string>{"id", "name"}), boost::test_tools::per_element()
    );
}

// E-mails are kept as sent (trimmed) in every body, as the public service keeps them; login and uniqueness
// stay case-insensitive. The default mode answers them lower-cased, as before.
BOOST_AUTO_TEST_CASE(emails_keep_the_case_they_were_sent_in) {
    const std::uint16_t port = compat_port();
    const http_reply created = send(
        port,
        "POST",
        "/api/v1/users",
        R"({"name":"Case","email":" Case.Kept@Example.COM ","password":"secret123","avatar":"https://placehold.co/200"})"
    );
    BOOST_TEST_REQUIRE(created.status == 201u, created.body);
    BOOST_TEST(created.json().at("email").as_string() == "Case.Kept@Example.COM");
    const std::string id = std::to_string(created.json().at("id").as_int64());
    BOOST_TEST(get(port, "/api/v1/users/" + id).json().at("email").as_string() == "Case.Kept@Example.COM");
    BOOST_TEST(get(port, "/api/v1/users?limit=0").body.find("Case.Kept@Example.COM") != std::string::npos);
    // Unique and logged in case-insensitively.
    const http_reply again = send(
        port,
        "POST",
        "/api/v1/users",
        R"({"name":"Other","email":"case.kept@example.com","password":"secret123","avatar":"https://placehold.co/200"})"
    );
    BOOST_TEST(again.status == 409u, again.body);
    BOOST_TEST(again.body.find("A user with this email already exists") != std::string::npos);
    const http_reply login =
        post_json(port, "/api/v1/auth/login", R"({"email":"CASE.KEPT@example.com","password":"secret123"})");
    BOOST_TEST_REQUIRE(login.status == 201u, login.body);
    const std::string token(login.json().at("access_token").as_string());
    const http_reply profile =
        send(port, "GET", "/api/v1/auth/profile", "", {{"Authorization", "Bearer " + token}});
    BOOST_TEST(profile.json().at("email").as_string() == "Case.Kept@Example.COM");
    // An update keeps the case it sends, too.
    const http_reply moved = send(
        port,
        "PUT",
        "/api/v1/users/" + id,
        R"({"email":"Moved.Case@Example.com"})",
        {{"Authorization", "Bearer " + token}}
    );
    BOOST_TEST_REQUIRE(moved.status == 200u, moved.body);
    BOOST_TEST(moved.json().at("email").as_string() == "Moved.Case@Example.com");

    const http_reply plain = send(
        default_port(),
        "POST",
        "/api/v1/users",
        R"({"name":"Lower","email":"Lower.Case@Example.COM","password":"secret123","avatar":"https://placehold.co/200"})"
    );
    BOOST_TEST_REQUIRE(plain.status == 201u, plain.body);
    BOOST_TEST(plain.json().at("email").as_string() == "lower.case@example.com");
}

// A known /api/v1 path with a method it does not take: the public router's 404, naming the method and the
// path as sent; preflights and /api/v3 are unchanged.
BOOST_AUTO_TEST_CASE(wrong_method_is_404_cannot) {
    struct row {
        std::string method;
        std::string target;
        std::string message;
    };
    const std::vector<row> rows = {
        {"DELETE", "/api/v1/products/", "Cannot DELETE /api/v1/products/"},
        {"DELETE", "/api/v1/products", "Cannot DELETE /api/v1/products"},
        {"PATCH", "/api/v1/products/1", "Cannot PATCH /api/v1/products/1"},
        {"PUT", "/api/v1/auth/login?x=1", "Cannot PUT /api/v1/auth/login"},
        {"POST", "/api/v1/categories/1", "Cannot POST /api/v1/categories/1"},
    };
    for (const auto& r : rows) {
        BOOST_TEST_CONTEXT(r.method << " " << r.target) {
            const http_reply reply = send(compat_port(), r.method, r.target);
            BOOST_TEST(reply.status == 404u);
            BOOST_TEST(reply.header("allow").empty());
            BOOST_TEST(
                reply.body == R"({"message":")" + r.message + R"(","error":"Not Found","statusCode":404})"
            );
        }
    }
    const http_reply preflight = send(compat_port(), "OPTIONS", "/api/v1/products");
    BOOST_TEST(preflight.status == 204u);
    BOOST_TEST(!preflight.header("allow").empty());
    const http_reply pet = send(compat_port(), "PUT", "/api/v3/store/inventory");
    BOOST_TEST(pet.status == 405u);
    BOOST_TEST(!pet.header("allow").empty());
}

// limit=0, or offset without limit: the whole list, still filtered and sorted.
BOOST_AUTO_TEST_CASE(limit_zero_and_offset_without_limit_give_the_whole_list) {
    struct row {
        std::string target;
        std::vector<std::int64_t> ids;
    };
    const std::vector<row> rows = {
        {"/api/v1/products?limit=0", range(1, 51)},
        {"/api/v1/products?offset=5", range(1, 51)},
        {"/api/v1/products?offset=0", range(1, 51)},
        {"/api/v1/products?limit=0&offset=20", range(1, 51)},
        {"/api/v1/products?offset=5&title=hoodie", {2, 3}},
        {"/api/v1/products?limit=0&price_min=90&price_max=100", {4, 8, 24}},
        {"/api/v1/products?limit=0&price=44", {1, 19}},
        {"/api/v1/products?limit=0&categoryId=3&sortBy=price&order=desc", {34, 32, 30, 28, 33, 31, 29}},
        {"/api/v1/categories?limit=0", range(1, 5)},
        {"/api/v1/categories?offset=2", range(1, 5)},
        {"/api/v1/categories/3/products?offset=3", range(28, 34)},
        {"/api/v1/categories/3/products?limit=0", range(28, 34)},
        {"/api/v1/products/29/related?limit=0", {28, 30, 31, 32, 33, 34}},
        {"/api/v1/users?limit=0&sortBy=id", range(1, 3)},
    };
    for (const auto& r : rows) {
        BOOST_TEST_CONTEXT(r.target) {
            const http_reply reply = get(compat_port(), r.target);
            BOOST_TEST_REQUIRE(reply.status == 200u, reply.body);
            const auto ids = ids_of(reply.json());
            if (r.target.find("/users") != std::string::npos) {
                // Other cases may have registered users: the seed comes first, every user is there.
                BOOST_TEST_REQUIRE(ids.size() >= r.ids.size());
                BOOST_TEST(
                    std::vector<std::int64_t>(ids.begin(), ids.begin() + 3) == r.ids,
                    boost::test_tools::per_element()
                );
                BOOST_TEST(reply.header("x-total-count") == std::to_string(ids.size()));
            } else {
                BOOST_TEST(ids == r.ids, boost::test_tools::per_element());
                BOOST_TEST(reply.header("x-total-count") == std::to_string(r.ids.size()));
            }
            BOOST_TEST(reply.header("link").empty());
        }
    }
    // Any other page is as usual, and a bad offset is still a 400.
    const http_reply page = get(compat_port(), "/api/v1/products?limit=5&offset=5");
    BOOST_TEST(ids_of(page.json()) == range(6, 10), boost::test_tools::per_element());
    BOOST_TEST(!page.header("link").empty());
    BOOST_TEST(
        ids_of(get(compat_port(), "/api/v1/products").json()) == range(1, 10),
        boost::test_tools::per_element()
    );
    const http_reply bad = get(compat_port(), "/api/v1/products?limit=0&offset=-1");
    BOOST_TEST(bad.status == 400u);
    BOOST_TEST(
        bad.body == R"({"message":["offset must not be less than 0"],"error":"Bad Request","statusCode":400})"
    );
    BOOST_TEST(get(compat_port(), "/api/v1/products?limit=101").status == 400u);
}

// The same requests without --compat: storefront's own answers.
BOOST_AUTO_TEST_CASE(default_mode_keeps_404_405_200_and_no_password) {
    const std::uint16_t port = default_port();
    const http_reply missing = get(port, "/api/v1/products/999");
    BOOST_TEST(missing.status == 404u);
    BOOST_TEST(missing.body == R"({"message":"Product 999 not found","error":"Not Found","statusCode":404})");
    BOOST_TEST(send(port, "DELETE", "/api/v1/users/999").status == 404u);
    BOOST_TEST(get(port, "/api/v1/categories/slug/nope").status == 404u);
    const http_reply wrong = send(port, "DELETE", "/api/v1/products/");
    BOOST_TEST(wrong.status == 405u);
    BOOST_TEST(!wrong.header("allow").empty());
    const http_reply available =
        post_json(port, "/api/v1/users/is-available", R"({"email":"john@mail.com"})");
    BOOST_TEST(available.status == 200u);
    BOOST_TEST(available.body == R"({"isAvailable":false})");
    for (const std::string target : {"/api/v1/users", "/api/v1/users/1", "/api/v1/users?sortBy=name"}) {
        BOOST_TEST_CONTEXT(target) {
            const http_reply reply = get(port, target);
            BOOST_TEST(reply.status == 200u);
            BOOST_TEST(reply.body.find("password") == std::string::npos);
        }
    }
    BOOST_TEST(get(port, "/api/v1/products?limit=0").status == 400u);
    BOOST_TEST(
        ids_of(get(port, "/api/v1/products?offset=5").json()) == range(6, 15),
        boost::test_tools::per_element()
    );
}

// STOREFRONT_COMPAT sets the mode; a value that is neither none nor public refuses to start.
BOOST_AUTO_TEST_CASE(environment_and_bad_values) {
    instance from_env = start({}, {"STOREFRONT_COMPAT=public"});
    BOOST_TEST(get(from_env.port, "/api/v1/products/999").status == 400u);
    from_env.process->signal(SIGTERM);
    BOOST_TEST(from_env.process->wait_exit(std::chrono::seconds(10)).value_or(-1) == 0);

    const std::vector<std::pair<std::vector<std::string>, std::vector<std::string>>> bad = {
        {{"--compat", "bogus"}, {}},
        {{"--compat", "Public"}, {}},
        {{"--compat", ""}, {}},
        {{}, {"STOREFRONT_COMPAT=strict"}},
    };
    for (const auto& [args, env] : bad) {
        BOOST_TEST_CONTEXT((args.empty() ? env.front() : args.back())) {
            child_process p(instance_args("memory", args), env);
            BOOST_TEST(p.wait_exit(std::chrono::seconds(10)).value_or(-1) == 2);
            const auto line = p.wait_for_line("--compat must be none or public", std::chrono::seconds(2));
            BOOST_TEST(line.has_value(), p.output());
        }
    }
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace compat_e2e_file
