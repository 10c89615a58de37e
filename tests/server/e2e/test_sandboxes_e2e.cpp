// End to end over HTTP: private sandboxes (issue 20) on memory and SQLite (server_tests) and on PostgreSQL
// (server_tests_pg): a fresh sandbox answers what the fresh shared view answers; its writes, seed rows
// included, stay in it; new ids are the same in every fresh sandbox; tokens and users belong to their
// sandbox; DELETE resets it; bad ids are 400s; the quotas answer 507 and keep what is stored; idle
// sandboxes expire; --sandboxes required and off; uploads stay in their sandbox; data survives a restart.

#include <chrono>
#include <csignal>
#include <gd.h>
#include <string>
#include <thread>
#include <vector>

#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>

#include "backend_matrix.hpp"
#include "common/child_process.hpp"
#include "common/temp_dir.hpp"
#include "core/sandbox.hpp"
#include "http_client.hpp"
#include "test_server.hpp"

namespace json = boost::json;
using namespace storefront;
using namespace storefront::test;

// A namespace of its own: a unity build compiles this file beside others whose helpers share names.
namespace sandboxes_e2e_file {
namespace {

// One request, in sandbox `sandbox` through the X-Sandbox header when `sandbox` is not empty.
http_reply call(
    std::uint16_t port,
    const std::string& method,
    const std::string& target,
    const std::string& body = "",
    const std::vector<std::pair<std::string, std::string>>& headers = {}
) {
    http_request_spec spec{.method = method, .target = target, .body = body, .headers = headers};
    if (!body.empty()) {
        spec.content_type = "application/json";
    }
    return send_request(port, spec);
}

// A new product's JSON; titles differ, since a title gives the product its unique slug.
std::string product_named(const std::string& title) {
    return R"({"title":")" + title +
           R"(","price":12,"description":"d","categoryId":1,"images":["https://placehold.co/600x400"]})";
}

const std::string product_body = product_named("Sandbox Lamp");

std::string bearer_login(
    std::uint16_t port, const std::string& base, const std::string& email, const std::string& password
) {
    const auto reply = call(
        port,
        "POST",
        base + "/api/v1/auth/login",
        R"({"email":")" + email + R"(","password":")" + password + "\"}"
    );
    BOOST_TEST_REQUIRE(reply.status == 201u, reply.body);
    return "Bearer " + std::string(reply.json().at("access_token").as_string());
}

// A pet store bearer token (both scopes) of the dev client, issued in `base` ("" or "/sandbox/{id}").
std::string pet_bearer(std::uint16_t port, const std::string& base) {
    http_request_spec spec{
        .method = "POST",
        .target = base + "/api/v3/oauth/token",
        .body = "grant_type=client_credentials",
        .content_type = "application/x-www-form-urlencoded",
        .headers = {{"Authorization", "Basic cGV0c3RvcmUtY2xpZW50OnBldHN0b3JlLXNlY3JldA=="}}};
    const auto reply = send_request(port, spec);
    BOOST_TEST_REQUIRE(reply.status == 200u, reply.body);
    return "Bearer " + std::string(reply.json().at("access_token").as_string());
}

// storefront_sandbox_quota_refusals_total of /metrics (process-wide: tests compare before and after).
double quota_refusals(std::uint16_t port) {
    const std::string body = get(port, "/metrics").body;
    const std::string name = "\nstorefront_sandbox_quota_refusals_total ";
    const auto at = body.find(name);
    BOOST_TEST_REQUIRE(at != std::string::npos);
    return std::stod(body.substr(at + name.size()));
}

bool is_json_error(const http_reply& reply) {
    return reply.header("content-type").starts_with("application/json") && reply.json().is_object() &&
           reply.json().as_object().contains("message");
}

}  // namespace

BOOST_AUTO_TEST_SUITE(sandboxes_e2e)

BOOST_AUTO_TEST_CASE(a_fresh_sandbox_answers_what_the_fresh_shared_view_answers) {
    temp_dir dir;
    for (const auto& b : backends(dir, "fresh.db")) {
        BOOST_TEST_CONTEXT(b.name) {
            running_server server(config_on(b.storage));
            const auto port = server.port();
            for (const std::string path :
                 {"/api/v1/products?offset=0&limit=100",
                  "/api/v1/products/7",
                  "/api/v1/categories",
                  "/api/v1/users",
                  "/api/v1/products/slug/nope",
                  "/api/v3/pet/1",
                  "/api/v3/pet/findByStatus?status=available",
                  "/api/v1/products/9999"}) {
                BOOST_TEST_CONTEXT(path) {
                    const auto shared = get(port, path);
                    const auto prefixed = get(port, "/sandbox/class-7" + path);
                    const auto by_header = call(port, "GET", path, "", {{"X-Sandbox", "class-8"}});
                    BOOST_TEST(prefixed.status == shared.status);
                    BOOST_TEST(by_header.status == shared.status);
                    if (shared.status == 200u) {
                        BOOST_TEST(prefixed.body == shared.body);
                        BOOST_TEST(by_header.body == shared.body);
                    }
                }
            }
        }
    }
}

BOOST_AUTO_TEST_CASE(writes_stay_in_their_sandbox_and_new_ids_are_deterministic) {
    temp_dir dir;
    for (const auto& b : backends(dir, "isolation.db")) {
        BOOST_TEST_CONTEXT(b.name) {
            running_server server(config_on(b.storage));
            const auto port = server.port();
            // The shared view writes first: sandboxes' ids do not move.
            BOOST_TEST_REQUIRE(call(port, "POST", "/api/v1/products", product_body).status == 201u);
            std::int64_t first_pet = 0;
            for (const std::string sandbox : {"alpha", "beta_2"}) {
                const std::string base = "/sandbox/" + sandbox;
                const auto product = call(port, "POST", base + "/api/v1/products", product_body);
                BOOST_TEST_REQUIRE(product.status == 201u, product.body);
                BOOST_TEST(product.json().at("id").as_int64() == 52);
                const auto category = call(
                    port,
                    "POST",
                    base + "/api/v1/categories",
                    R"({"name":"Lamps )" + sandbox + R"(","image":"https://placehold.co/600x400"})"
                );
                BOOST_TEST_REQUIRE(category.status == 201u, category.body);
                BOOST_TEST(category.json().at("id").as_int64() == 6);
                const auto user = call(
                    port,
                    "POST",
                    base + "/api/v1/users",
                    R"({"name":"Sam","email":"sam)" + std::to_string(sandbox.size()) +
                        R"(@mail.com","password":"secret123","avatar":"https://placehold.co/600x400"})"
                );
                BOOST_TEST_REQUIRE(user.status == 201u, user.body);
                BOOST_TEST(user.json().at("id").as_int64() == 4);
                const auto pet = call(
                    port,
                    "POST",
                    base + "/api/v3/pet",
                    R"({"name":"Rex","photoUrls":[]})",
                    {{"Authorization", pet_bearer(port, base)}}
                );
                BOOST_TEST_REQUIRE(pet.status == 200u, pet.body);
                const auto pet_id = pet.json().at("id").as_int64();
                BOOST_TEST((first_pet == 0 || pet_id == first_pet));
                BOOST_TEST(
                    call(
                        port,
                        "GET",
                        base + "/api/v3/pet/" + std::to_string(pet_id),
                        "",
                        {{"api_key", "special-key"}}
                    ).status == 200u
                );
                first_pet = pet_id;
            }
            // Visible in its sandbox only: not in the shared view (whose own 52 is another product), not in
            // another sandbox that never wrote.
            BOOST_TEST(
                get(port, "/sandbox/alpha/api/v1/products/52").json().at("title").as_string() ==
                "Sandbox Lamp"
            );
            BOOST_TEST(get(port, "/sandbox/gamma/api/v1/products/52").status == 404u);
            BOOST_TEST(get(port, "/sandbox/gamma/api/v1/categories/6").status == 404u);
            BOOST_TEST(get(port, "/api/v1/users/4").status == 404u);
            BOOST_TEST(
                call(
                    port, "GET", "/api/v3/pet/" + std::to_string(first_pet), "", {{"api_key", "special-key"}}
                ).status == 404u
            );

            // Copy-on-write of seed rows: changed and deleted in one sandbox only.
            const auto renamed =
                call(port, "PUT", "/sandbox/alpha/api/v1/products/1", R"({"title":"Mine Now"})");
            BOOST_TEST_REQUIRE(renamed.status == 200u, renamed.body);
            BOOST_TEST(
                get(port, "/sandbox/alpha/api/v1/products/1").json().at("title").as_string() == "Mine Now"
            );
            BOOST_TEST(get(port, "/api/v1/products/1").json().at("title").as_string() != "Mine Now");
            BOOST_TEST(
                get(port, "/sandbox/beta_2/api/v1/products/1").json().at("title").as_string() != "Mine Now"
            );
            BOOST_TEST_REQUIRE(call(port, "DELETE", "/sandbox/alpha/api/v1/products/2").status == 200u);
            BOOST_TEST(get(port, "/sandbox/alpha/api/v1/products/2").status == 404u);
            BOOST_TEST(get(port, "/api/v1/products/2").status == 200u);
            // The shared view's seed stays read-only.
            BOOST_TEST(call(port, "PUT", "/api/v1/products/1", R"({"title":"Mine Now"})").status == 403u);

            // DELETE /sandbox/{id}: the next request reads the seed again, and ids start over.
            BOOST_TEST(call(port, "DELETE", "/sandbox/alpha").status == 204u);
            BOOST_TEST(get(port, "/sandbox/alpha/api/v1/products/52").status == 404u);
            BOOST_TEST(get(port, "/sandbox/alpha/api/v1/products/2").status == 200u);
            BOOST_TEST(
                get(port, "/sandbox/alpha/api/v1/products?offset=0&limit=100").json().as_array().size() == 51u
            );
            const auto again = call(port, "POST", "/sandbox/alpha/api/v1/products", product_body);
            BOOST_TEST_REQUIRE(again.status == 201u, again.body);
            BOOST_TEST(again.json().at("id").as_int64() == 52);
            BOOST_TEST(get(port, "/sandbox/beta_2/api/v1/products/52").status == 200u);  // the other one kept
        }
    }
}

BOOST_AUTO_TEST_CASE(users_and_tokens_belong_to_their_sandbox) {
    temp_dir dir;
    for (const auto& b : backends(dir, "tokens.db")) {
        BOOST_TEST_CONTEXT(b.name) {
            running_server server(config_on(b.storage));
            const auto port = server.port();
            const std::string profile = "/api/v1/auth/profile";
            // The seed admin exists in every sandbox; its token works only where it was issued.
            const auto in_a = bearer_login(port, "/sandbox/team-a", "admin@mail.com", "admin123");
            const auto shared = bearer_login(port, "", "admin@mail.com", "admin123");
            BOOST_TEST(
                call(port, "GET", "/sandbox/team-a" + profile, "", {{"Authorization", in_a}}).status == 200u
            );
            BOOST_TEST(call(port, "GET", profile, "", {{"Authorization", in_a}}).status == 401u);
            BOOST_TEST(
                call(port, "GET", "/sandbox/team-b" + profile, "", {{"Authorization", in_a}}).status == 401u
            );
            BOOST_TEST(
                call(port, "GET", "/sandbox/team-a" + profile, "", {{"Authorization", shared}}).status == 401u
            );
            BOOST_TEST(
                call(port, "GET", profile, "", {{"X-Sandbox", "team-a"}, {"Authorization", in_a}}).status ==
                200u
            );

            // A user registered in one sandbox logs in there only.
            const auto registered = call(
                port,
                "POST",
                "/sandbox/team-a/api/v1/users",
                R"({"name":"Kim","email":"kim@team.test","password":"kimsecret1","avatar":"https://placehold.co/600x400"})"
            );
            BOOST_TEST_REQUIRE(registered.status == 201u, registered.body);
            const std::string login = R"({"email":"kim@team.test","password":"kimsecret1"})";
            BOOST_TEST(call(port, "POST", "/sandbox/team-a/api/v1/auth/login", login).status == 201u);
            BOOST_TEST(call(port, "POST", "/api/v1/auth/login", login).status == 401u);
            BOOST_TEST(call(port, "POST", "/sandbox/team-b/api/v1/auth/login", login).status == 401u);

            // Pet store tokens too.
            const std::string pet = R"({"name":"Tok","photoUrls":[]})";
            const auto pet_a = pet_bearer(port, "/sandbox/team-a");
            const auto pet_shared = pet_bearer(port, "");
            BOOST_TEST(
                call(port, "POST", "/sandbox/team-a/api/v3/pet", pet, {{"Authorization", pet_a}}).status ==
                200u
            );
            BOOST_TEST(call(port, "POST", "/api/v3/pet", pet, {{"Authorization", pet_a}}).status == 401u);
            BOOST_TEST(
                call(port, "POST", "/sandbox/team-b/api/v3/pet", pet, {{"Authorization", pet_a}}).status ==
                401u
            );
            BOOST_TEST(
                call(
                    port, "POST", "/sandbox/team-a/api/v3/pet", pet, {{"Authorization", pet_shared}}
                ).status == 401u
            );
        }
    }
}

BOOST_AUTO_TEST_CASE(bad_ids_and_prefixes_are_400s) {
    running_server server(config_on("memory"));
    const auto port = server.port();
    for (const std::string& target : std::vector<std::string>{
             "/sandbox/abc/api/v1/products",
             "/sandbox/a%20bc/api/v1/products",
             "/sandbox/" + std::string(65, 'x') + "/api/v1/products",
             "/sandbox/ab.cd/api/v1/products",
             "/sandbox//api/v1/products",
             "/sandbox/%C3%A9tude/api/v1/products"}) {
        BOOST_TEST_CONTEXT(target) {
            const auto reply = get(port, target);
            BOOST_TEST(reply.status == 400u);
            BOOST_TEST(is_json_error(reply));
            BOOST_TEST(reply.body.find("[A-Za-z0-9_-]{4,64}") != std::string::npos);
        }
    }
    for (const std::string& header :
         std::vector<std::string>{"abc", "has space", std::string(65, 'y'), "semi;colon"}) {
        const auto reply = call(port, "GET", "/api/v1/products", "", {{"X-Sandbox", header}});
        BOOST_TEST(reply.status == 400u);
        BOOST_TEST(is_json_error(reply));
    }
    const auto both = call(port, "GET", "/sandbox/abcd/api/v1/products", "", {{"X-Sandbox", "efgh"}});
    BOOST_TEST(both.status == 400u);
    BOOST_TEST(
        call(port, "GET", "/sandbox/abcd/api/v1/products", "", {{"X-Sandbox", "abcd"}}).status == 200u
    );
    // Unknown paths inside a sandbox, and the ops routes, are 404s; a sandbox itself answers DELETE only.
    BOOST_TEST(get(port, "/sandbox/abcd/api/v1/nothing").status == 404u);
    BOOST_TEST(get(port, "/sandbox/abcd/metrics").status == 404u);
    BOOST_TEST(get(port, "/sandbox/abcd").status == 405u);
    BOOST_TEST(get(port, "/sandbox/abcd/docs").status == 200u);
}

BOOST_AUTO_TEST_CASE(post_sandboxes_gives_a_random_id_and_its_bases) {
    auto config = config_on("memory");
    config.public_url = "https://store.example";
    config.sandboxes.ttl = std::chrono::hours(48);
    running_server server(config);
    const auto port = server.port();
    const auto made = call(port, "POST", "/api/v1/sandboxes");
    BOOST_TEST_REQUIRE(made.status == 201u, made.body);
    const auto document = made.json();
    const auto& body = document.as_object();
    const std::string id(body.at("id").as_string());
    BOOST_TEST(core::valid_sandbox_id(id));
    BOOST_TEST(id.size() >= 22u);  // 128 random bits in base64url
    BOOST_TEST(body.at("apiBase").as_string() == "https://store.example/sandbox/" + id + "/api/v1");
    BOOST_TEST(body.at("petBase").as_string() == "https://store.example/sandbox/" + id + "/api/v3");
    BOOST_TEST(body.at("expiresAt").as_string().size() == 20u);
    const auto other = call(port, "POST", "/api/v1/sandboxes");
    BOOST_TEST(other.json().at("id").as_string() != id);
    BOOST_TEST(call(port, "POST", "/sandbox/" + id + "/api/v1/products", product_body).status == 201u);
}

BOOST_AUTO_TEST_CASE(full_quotas_answer_507_and_keep_what_is_stored) {
    temp_dir dir;
    for (const auto& b : backends(dir, "quota.db")) {
        BOOST_TEST_CONTEXT(b.name) {
            auto config = config_on(b.storage);
            config.sandboxes.max_live = 2;
            config.sandboxes.max_rows = 2;
            running_server server(config);
            const auto port = server.port();
            const double refusals_before = quota_refusals(port);
            BOOST_TEST_REQUIRE(
                call(port, "POST", "/sandbox/one1/api/v1/products", product_named("Quota Lamp 1")).status ==
                201u
            );
            BOOST_TEST_REQUIRE(
                call(port, "POST", "/sandbox/two2/api/v1/products", product_named("Quota Lamp 2")).status ==
                201u
            );
            const auto third =
                call(port, "POST", "/sandbox/three/api/v1/products", product_named("Quota Lamp 3"));
            BOOST_TEST(third.status == 507u);
            BOOST_TEST(is_json_error(third));
            BOOST_TEST(get(port, "/sandbox/three/api/v1/products/1").status == 200u);  // still reads the seed
            // Rows: two more than the seed, then 507; what is stored stays.
            BOOST_TEST(
                call(port, "POST", "/sandbox/one1/api/v1/products", product_named("Quota Lamp 4")).status ==
                201u
            );
            const auto over =
                call(port, "POST", "/sandbox/one1/api/v1/products", product_named("Quota Lamp 5"));
            BOOST_TEST(over.status == 507u);
            BOOST_TEST(is_json_error(over));
            BOOST_TEST(get(port, "/sandbox/one1/api/v1/products/53").status == 200u);
            BOOST_TEST(
                call(port, "PUT", "/sandbox/one1/api/v1/products/52", R"({"title":"Still Mine"})").status ==
                200u
            );
            BOOST_TEST(
                call(port, "POST", "/sandbox/two2/api/v1/products", product_named("Quota Lamp 6")).status ==
                201u
            );
            // A reset frees a place.
            BOOST_TEST(call(port, "DELETE", "/sandbox/two2").status == 204u);
            BOOST_TEST(
                call(port, "POST", "/sandbox/three/api/v1/products", product_named("Quota Lamp 7")).status ==
                201u
            );
            // The pet store answers its quota in its own shape.
            const std::string pet_bearer_one = pet_bearer(port, "/sandbox/one1");
            for (int i = 0; i < 2; ++i) {
                BOOST_TEST(
                    call(
                        port,
                        "POST",
                        "/sandbox/one1/api/v3/pet",
                        R"({"name":"Q","photoUrls":[]})",
                        {{"Authorization", pet_bearer_one}}
                    ).status == 200u
                );
            }
            const auto pet_over = call(
                port,
                "POST",
                "/sandbox/one1/api/v3/pet",
                R"({"name":"Q","photoUrls":[]})",
                {{"Authorization", pet_bearer_one}}
            );
            BOOST_TEST(pet_over.status == 507u);
            BOOST_TEST(pet_over.json().at("code").as_int64() == 507);
            BOOST_TEST(quota_refusals(port) - refusals_before == 3.0);
            // A purge pass updates the gauges: one1 (2 products and 2 pets added) and three (1) hold data.
            server.app().sandboxes()->purge_now();
            const std::string metrics = get(port, "/metrics").body;
            BOOST_TEST(metrics.find("\nstorefront_sandboxes_live 2\n") != std::string::npos);
            BOOST_TEST(metrics.find("\nstorefront_sandbox_rows_sum 5\n") != std::string::npos);
            BOOST_TEST(metrics.find("\nstorefront_sandbox_rows_count 2\n") != std::string::npos);
            BOOST_TEST(metrics.find("storefront_sandbox_rows_bucket{le=\"10\"} 2") != std::string::npos);
        }
    }
}

BOOST_AUTO_TEST_CASE(idle_sandboxes_expire) {
    temp_dir dir;
    for (const auto& b : backends(dir, "expiry.db")) {
        BOOST_TEST_CONTEXT(b.name) {
            auto config = config_on(b.storage);
            config.sandboxes.ttl = std::chrono::seconds(1);
            running_server server(config);
            const auto port = server.port();
            BOOST_TEST_REQUIRE(
                call(port, "POST", "/sandbox/short/api/v1/products", product_body).status == 201u
            );
            BOOST_TEST(get(port, "/sandbox/short/api/v1/products/52").status == 200u);
            // Unused for three TTLs (a use would keep it alive): purged by the background pass.
            std::this_thread::sleep_for(std::chrono::seconds(3));
            const auto status = get(port, "/sandbox/short/api/v1/products/52").status;
            BOOST_TEST(status == 404u);  // purged: the seed again
        }
    }
}

BOOST_AUTO_TEST_CASE(required_mode_makes_the_shared_view_read_only) {
    auto config = config_on("memory");
    config.sandboxes.mode = core::sandbox_mode::required;
    running_server server(config);
    const auto port = server.port();
    const auto refused = call(port, "POST", "/api/v1/products", product_body);
    BOOST_TEST(refused.status == 403u);
    BOOST_TEST(is_json_error(refused));
    BOOST_TEST(refused.body.find("/sandbox/{id}") != std::string::npos);
    BOOST_TEST(
        call(port, "DELETE", "/api/v3/pet/1", "", {{"Authorization", pet_bearer(port, "")}}).status == 403u
    );
    BOOST_TEST(get(port, "/api/v1/products/1").status == 200u);
    bearer_login(port, "", "john@mail.com", "changeme");  // logging in changes no data
    BOOST_TEST(call(port, "POST", "/api/v1/products", product_body, {{"X-Sandbox", "mine"}}).status == 201u);
    BOOST_TEST(call(port, "POST", "/api/v1/sandboxes").status == 201u);
}

BOOST_AUTO_TEST_CASE(off_mode_refuses_the_prefix_and_the_header) {
    auto config = config_on("memory");
    config.sandboxes.mode = core::sandbox_mode::off;
    running_server server(config);
    const auto port = server.port();
    BOOST_TEST(get(port, "/sandbox/abcd/api/v1/products").status == 404u);
    const auto header = call(port, "GET", "/api/v1/products", "", {{"X-Sandbox", "abcd"}});
    BOOST_TEST(header.status == 400u);
    BOOST_TEST(is_json_error(header));
    BOOST_TEST(call(port, "POST", "/api/v1/sandboxes").status == 404u);
    BOOST_TEST(call(port, "POST", "/api/v1/products", product_body).status == 201u);
}

BOOST_AUTO_TEST_CASE(sandbox_data_survives_a_restart_on_sqlite) {
    temp_dir dir;
    const std::string storage = "sqlite:" + (dir.path() / "restart.db").string();
    {
        running_server server(config_on(storage));
        const auto made = call(server.port(), "POST", "/sandbox/keeper/api/v1/products", product_body);
        BOOST_TEST_REQUIRE(made.status == 201u);
    }
    running_server server(config_on(storage));
    BOOST_TEST(get(server.port(), "/sandbox/keeper/api/v1/products/52").status == 200u);
    BOOST_TEST(get(server.port(), "/api/v1/products/52").status == 404u);
}

BOOST_AUTO_TEST_CASE(uploads_belong_to_their_sandbox) {
    running_server server(config_on("memory"));
    const auto port = server.port();
    const std::string boundary = "sandbox-boundary";
    // A 2x2 PNG (uploads are sniffed: images only).
    gdImagePtr im = gdImageCreate(2, 2);
    gdImageColorAllocate(im, 1, 2, 3);
    int size = 0;
    void* data = gdImagePngPtr(im, &size);
    const std::string png(static_cast<const char*>(data), static_cast<std::size_t>(size));
    gdFree(data);
    gdImageDestroy(im);
    const std::string body = "--" + boundary +
                             "\r\nContent-Disposition: form-data; name=\"file\"; filename=\"dot.png\"\r\n"
                             "Content-Type: image/png\r\n\r\n" +
                             png + "\r\n--" + boundary + "--\r\n";
    const auto uploaded = send_request(
        port,
        {.method = "POST",
         .target = "/sandbox/files-a/api/v1/files/upload",
         .body = body,
         .content_type = "multipart/form-data; boundary=" + boundary}
    );
    BOOST_TEST_REQUIRE(uploaded.status == 201u, uploaded.body);
    const std::string location(uploaded.json().at("location").as_string());
    const auto path_at = location.find("/sandbox/files-a/api/v1/files/");
    BOOST_TEST_REQUIRE(path_at != std::string::npos, location);
    const std::string path = location.substr(path_at);
    BOOST_TEST(get(port, path).body == png);
    const std::string name = path.substr(path.rfind('/') + 1);
    BOOST_TEST(get(port, "/api/v1/files/" + name).status == 404u);
    BOOST_TEST(get(port, "/sandbox/files-b/api/v1/files/" + name).status == 404u);
}

BOOST_AUTO_TEST_CASE(the_binary_takes_the_sandbox_flags_and_refuses_bad_ones) {
    child_process off(instance_args("memory"), {"STOREFRONT_SANDBOXES=off"});
    const std::uint16_t port = off.wait_listening(std::chrono::seconds(20));
    BOOST_TEST(get(port, "/sandbox/abcd/api/v1/products").status == 404u);
    off.signal(SIGTERM);
    BOOST_TEST(off.wait_exit(std::chrono::seconds(15)).value_or(-1) == 0);

    // A public instance: the shared data read-only, sandboxes writable.
    child_process required(instance_args("memory", {"--sandboxes", "required"}));
    const std::uint16_t public_port = required.wait_listening(std::chrono::seconds(20));
    BOOST_TEST(call(public_port, "POST", "/api/v1/products", product_body).status == 403u);
    BOOST_TEST(call(public_port, "POST", "/sandbox/pupil-1/api/v1/products", product_body).status == 201u);
    required.signal(SIGTERM);
    BOOST_TEST(required.wait_exit(std::chrono::seconds(15)).value_or(-1) == 0);

    const std::vector<std::pair<std::vector<std::string>, std::string>> rows = {
        {{"--sandboxes", "maybe"}, "--sandboxes must be off, on or required"},
        {{"--sandbox-ttl", "7w"}, "--sandbox-ttl must be a duration"},
        {{"--sandbox-ttl", "0s"}, "--sandbox-ttl must be a duration"},
        {{"--sandbox-max", "0"}, "--sandbox-max must be between 1 and"},
    };
    for (const auto& [args, message] : rows) {
        BOOST_TEST_CONTEXT(message) {
            child_process p(args, {});
            BOOST_TEST(p.wait_exit(std::chrono::seconds(5)).value_or(-1) == 2);
            p.wait_for_line("storefront:", std::chrono::seconds(1));
            BOOST_TEST(p.output().find(message) != std::string::npos, p.output());
        }
    }
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace sandboxes_e2e_file
