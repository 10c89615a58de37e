// End to end over HTTP, on every backend (memory and SQLite here, PostgreSQL under server_tests_pg): who may
// change an account (issue 45), sessions that end (a credentials or role change, a delete, a logout, on this
// instance and on another one sharing the database), the roles switch that demotes self-made admins, the
// Cache-Control of token and profile answers, and the login brake (429 with Retry-After on /api/v1, /api/v3
// and GraphQL, under concurrency, without slowing other accounts).

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>

#include "backend_matrix.hpp"
#include "common/temp_dir.hpp"
#include "core/jwt.hpp"
#include "core/pet_auth.hpp"
#include "http_client.hpp"
#include "test_server.hpp"

namespace json = boost::json;
using namespace storefront;
using namespace storefront::test;
using namespace std::chrono_literals;

namespace {

server::server_config accounts_config(
    const std::string& storage,
    core::write_policy policy = core::write_policy::open,
    core::compat_mode compat = core::compat_mode::none
) {
    auto c = config_on(storage);
    c.write_policy = policy;
    c.compat = compat;
    return c;
}

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

http_reply with_token(
    std::uint16_t port, const std::string& method, const std::string& target, const std::string& token
) {
    http_request_spec spec{.method = method, .target = target};
    if (!token.empty()) {
        spec.headers.emplace_back("Authorization", "Bearer " + token);
    }
    return send_request(port, spec);
}

http_reply try_login(std::uint16_t port, const std::string& email, const std::string& password) {
    json::object body{{"email", email}, {"password", password}};
    return post_json(port, "/api/v1/auth/login", json::serialize(body));
}

struct tokens {
    std::string access;
    std::string refresh;
};

tokens login(std::uint16_t port, const std::string& email, const std::string& password) {
    const auto reply = try_login(port, email, password);
    BOOST_TEST_REQUIRE(reply.status == 201u, reply.body);
    const auto doc = reply.json();
    return {
        std::string(doc.at("access_token").as_string()), std::string(doc.at("refresh_token").as_string())};
}

std::int64_t register_user(std::uint16_t port, const std::string& email, const std::string& token = {}) {
    const auto created = send_json(
        port,
        "POST",
        "/api/v1/users",
        R"({"name":"U","email":")" + email + R"(","password":"secret123","avatar":"https://x.com/a.png"})",
        token
    );
    BOOST_TEST_REQUIRE(created.status == 201u, created.body);
    return created.json().at("id").as_int64();
}

std::string user_path(std::int64_t id) {
    return "/api/v1/users/" + std::to_string(id);
}

unsigned profile_status(std::uint16_t port, const std::string& access) {
    return with_token(port, "GET", "/api/v1/auth/profile", access).status;
}

unsigned refresh_status(std::uint16_t port, const std::string& refresh) {
    return post_json(port, "/api/v1/auth/refresh-token", R"({"refreshToken":")" + refresh + "\"}").status;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(accounts_e2e)

// Credentials and roles are the account's own under every policy and in both modes; other fields and
// deletes keep the policy (open: anyone, as the public service's examples); self-registration is a customer.
BOOST_AUTO_TEST_CASE(only_the_owner_or_an_admin_changes_credentials_and_only_an_admin_roles) {
    const temp_dir dir;
    int n = 0;
    for (const auto& b : backends(dir, "takeover.db")) {
        for (const auto policy : {core::write_policy::open, core::write_policy::roles}) {
            for (const auto compat : {core::compat_mode::none, core::compat_mode::public_service}) {
                const bool open = policy == core::write_policy::open;
                BOOST_TEST_CONTEXT(
                    b.name << (open ? " open" : " roles") << " compat " << static_cast<int>(compat)
                ) {
                    auto storage = b.storage;
                    if (storage.rfind("sqlite:", 0) == 0) {
                        storage += std::to_string(++n);  // a fresh file per server
                    } else if (storage != "memory") {
                        storage = create_test_database();
                    }
                    running_server server(accounts_config(storage, policy, compat));
                    const auto port = server.port();
                    const auto a = register_user(port, "a@example.com");
                    const auto b_id = register_user(port, "b@example.com");
                    const auto a_token = login(port, "a@example.com", "secret123").access;
                    const auto b_token = login(port, "b@example.com", "secret123").access;
                    const auto admin = login(port, "admin@mail.com", "admin123").access;

                    // Anonymous: no password, e-mail or role change of anyone's account.
                    BOOST_TEST(
                        send_json(port, "PUT", user_path(a), R"({"password":"taken0ver"})").status == 401u
                    );
                    BOOST_TEST(
                        send_json(port, "PUT", user_path(a), R"({"email":"x@evil.com"})").status == 401u
                    );
                    BOOST_TEST(send_json(port, "PUT", user_path(a), R"({"role":"admin"})").status == 401u);
                    // Another user: 403.
                    BOOST_TEST(
                        send_json(port, "PUT", user_path(a), R"({"password":"taken0ver"})", b_token).status ==
                        403u
                    );
                    BOOST_TEST(
                        send_json(port, "PUT", user_path(a), R"({"role":"admin"})", a_token).status == 403u
                    );
                    BOOST_TEST(try_login(port, "a@example.com", "taken0ver").status == 401u);
                    // A name change keeps the policy: anyone under open, the owner under roles.
                    BOOST_TEST(
                        send_json(port, "PUT", user_path(a), R"({"name":"Renamed"})").status ==
                        (open ? 200u : 401u)
                    );
                    // The owner changes their own e-mail; an admin another's password and role.
                    BOOST_TEST(
                        send_json(port, "PUT", user_path(a), R"({"email":"a2@example.com"})", a_token)
                            .status == 200u
                    );
                    BOOST_TEST(
                        send_json(port, "PUT", user_path(b_id), R"({"password":"reset1234"})", admin)
                            .status == 200u
                    );
                    BOOST_TEST(try_login(port, "b@example.com", "reset1234").status == 201u);
                    const auto promoted =
                        send_json(port, "PUT", user_path(b_id), R"({"role":"admin"})", admin);
                    BOOST_TEST(promoted.status == 200u);

                    // Self-registration is a customer: asking for admin needs an admin.
                    const std::string admin_body =
                        R"({"name":"M","email":"m@example.com","password":"secret123","avatar":"https://x.com/a.png","role":"admin"})";
                    BOOST_TEST(send_json(port, "POST", "/api/v1/users", admin_body).status == 401u);
                    const auto made = send_json(port, "POST", "/api/v1/users", admin_body, admin);
                    BOOST_TEST(made.status == 201u);
                    BOOST_TEST(made.json().at("role").as_string() == "admin");

                    // GraphQL's updateUser follows the same rule.
                    const auto graph = send_request(
                        port,
                        {.method = "POST",
                         .target = "/graphql",
                         .body = R"({"query":"mutation { updateUser(id: )" + std::to_string(a) +
                                 R"(, changes: {password: \"graph0ver\"}) { id } }"})",
                         .content_type = "application/json"}
                    );
                    BOOST_TEST(graph.body.find("graph0ver") == std::string::npos);
                    BOOST_TEST(graph.body.find("\"errors\"") != std::string::npos, graph.body);
                    BOOST_TEST(try_login(port, "a2@example.com", "graph0ver").status == 401u);

                    // Deletes keep the policy: the public service's "delete a user one just made" under open.
                    BOOST_TEST(
                        send_request(port, {.method = "DELETE", .target = user_path(b_id)}).status ==
                        (open ? 200u : 401u)
                    );
                }
            }
        }
    }
}

// A password, e-mail or role change and a delete end every login of the account (access and refresh
// tokens); a logout ends that login's access token too; other users' logins stay.
BOOST_AUTO_TEST_CASE(sessions_end_on_credentials_change_delete_and_logout) {
    const temp_dir dir;
    for (const auto& b : backends(dir, "sessions.db")) {
        BOOST_TEST_CONTEXT(b.name) {
            running_server server(accounts_config(b.storage));
            const auto port = server.port();
            const auto id = register_user(port, "s@example.com");
            const auto phone = login(port, "s@example.com", "secret123");
            const auto laptop = login(port, "s@example.com", "secret123");
            const auto other = login(port, "maria@mail.com", "12345");
            BOOST_TEST(profile_status(port, phone.access) == 200u);

            // Logout ends that login's access token at once; the other login stays.
            const auto out = with_token(port, "POST", "/api/v1/auth/logout", laptop.access);
            BOOST_TEST(out.status == 200u);
            BOOST_TEST(profile_status(port, laptop.access) == 401u);
            BOOST_TEST(refresh_status(port, laptop.refresh) == 401u);
            BOOST_TEST(profile_status(port, phone.access) == 200u);

            // A password change by the owner ends every login of the account, the changing one included.
            const auto second = login(port, "s@example.com", "secret123");
            const auto changed =
                send_json(port, "PUT", user_path(id), R"({"password":"newsecret1"})", phone.access);
            BOOST_TEST(changed.status == 200u);
            BOOST_TEST(changed.header("cache-control") == "private, no-store");  // one's own record
            BOOST_TEST(profile_status(port, phone.access) == 401u);
            BOOST_TEST(profile_status(port, second.access) == 401u);
            BOOST_TEST(refresh_status(port, phone.refresh) == 401u);
            BOOST_TEST(refresh_status(port, second.refresh) == 401u);
            BOOST_TEST(profile_status(port, other.access) == 200u);  // other users untouched

            // An e-mail change, a role change and a delete do the same.
            auto fresh = login(port, "s@example.com", "newsecret1");
            BOOST_TEST(
                send_json(port, "PUT", user_path(id), R"({"email":"s2@example.com"})", fresh.access).status ==
                200u
            );
            BOOST_TEST(profile_status(port, fresh.access) == 401u);
            fresh = login(port, "s2@example.com", "newsecret1");
            const auto admin = login(port, "admin@mail.com", "admin123").access;
            BOOST_TEST(send_json(port, "PUT", user_path(id), R"({"role":"admin"})", admin).status == 200u);
            BOOST_TEST(profile_status(port, fresh.access) == 401u);
            BOOST_TEST(refresh_status(port, fresh.refresh) == 401u);
            fresh = login(port, "s2@example.com", "newsecret1");
            BOOST_TEST(with_token(port, "DELETE", user_path(id), admin).status == 200u);
            BOOST_TEST(profile_status(port, fresh.access) == 401u);
            BOOST_TEST(refresh_status(port, fresh.refresh) == 401u);
            // A name or avatar change ends nothing.
            const auto named = register_user(port, "n@example.com");
            const auto keep = login(port, "n@example.com", "secret123");
            BOOST_TEST(
                send_json(port, "PUT", user_path(named), R"({"name":"N"})", keep.access).status == 200u
            );
            BOOST_TEST(profile_status(port, keep.access) == 200u);
            BOOST_TEST(refresh_status(port, keep.refresh) == 201u);
        }
    }
}

// A login's refresh family has an absolute end (--session-ttl): refreshing does not extend it, and its access
// tokens end with it.
BOOST_AUTO_TEST_CASE(refresh_families_have_an_absolute_lifetime) {
    auto config = accounts_config("memory");
    config.tokens.family_lifetime = 2s;
    running_server server(config);
    const auto port = server.port();
    auto pair = login(port, "john@mail.com", "changeme");
    const auto refreshed =
        post_json(port, "/api/v1/auth/refresh-token", R"({"refreshToken":")" + pair.refresh + "\"}");
    BOOST_TEST_REQUIRE(refreshed.status == 201u);
    const auto doc = refreshed.json();
    pair = {
        std::string(doc.at("access_token").as_string()), std::string(doc.at("refresh_token").as_string())};
    BOOST_TEST(profile_status(port, pair.access) == 200u);
    std::this_thread::sleep_for(2100ms);
    BOOST_TEST(refresh_status(port, pair.refresh) == 401u);
    BOOST_TEST(profile_status(port, pair.access) == 401u);
}

// Two instances on one PostgreSQL database: a password change on one ends the logins on the other (within
// the session cache's second).
BOOST_AUTO_TEST_CASE(a_password_change_on_one_instance_ends_sessions_on_the_other) {
    if (!std::getenv("TEST_PG_DSN")) {
        BOOST_TEST_MESSAGE("skipped: needs TEST_PG_DSN (server_tests_pg)");
        return;
    }
    const auto dsn = create_test_database();
    running_server first(accounts_config(dsn));
    running_server second(accounts_config(dsn));
    const auto id = register_user(first.port(), "two@example.com");
    const auto there = login(second.port(), "two@example.com", "secret123");
    const auto here = login(first.port(), "two@example.com", "secret123");
    BOOST_TEST_REQUIRE(profile_status(second.port(), there.access) == 200u);
    BOOST_TEST(
        send_json(first.port(), "PUT", user_path(id), R"({"password":"changed99"})", here.access).status ==
        200u
    );
    BOOST_TEST(refresh_status(second.port(), there.refresh) == 401u);  // storage: at once
    const auto deadline = std::chrono::steady_clock::now() + 3s;
    unsigned status = 200u;
    while (status == 200u && std::chrono::steady_clock::now() < deadline) {
        status = profile_status(second.port(), there.access);
        if (status == 200u) {
            std::this_thread::sleep_for(100ms);
        }
    }
    BOOST_TEST(status == 401u);
}

// Admins self-made under open (before issue 45) do not survive a start under roles, unless --admins names
// them.
BOOST_AUTO_TEST_CASE(switching_to_roles_demotes_self_made_admins) {
    const temp_dir dir;
    for (const auto& b : backends(dir, "switch.db")) {
        if (b.storage == "memory") {
            continue;  // nothing outlives the process
        }
        BOOST_TEST_CONTEXT(b.name) {
            std::int64_t kept = 0;
            std::int64_t demoted = 0;
            {
                running_server open_server(accounts_config(b.storage));
                const auto admin = login(open_server.port(), "admin@mail.com", "admin123").access;
                const std::string body =
                    R"(","password":"secret123","avatar":"https://x.com/a.png","role":"admin"})";
                const auto made = send_json(
                    open_server.port(),
                    "POST",
                    "/api/v1/users",
                    R"({"name":"K","email":"kept@example.com)" + body,
                    admin
                );
                const auto self = send_json(
                    open_server.port(),
                    "POST",
                    "/api/v1/users",
                    R"({"name":"S","email":"self@example.com)" + body,
                    admin
                );
                BOOST_TEST_REQUIRE(made.status == 201u);
                BOOST_TEST_REQUIRE(self.status == 201u);
                kept = made.json().at("id").as_int64();
                demoted = self.json().at("id").as_int64();
            }
            auto config = accounts_config(b.storage, core::write_policy::roles);
            config.kept_admins = {"kept@example.com"};
            running_server roles_server(config);
            const auto port = roles_server.port();
            const auto admin = login(port, "admin@mail.com", "admin123").access;
            BOOST_TEST(
                with_token(port, "GET", user_path(kept), admin).json().at("role").as_string() == "admin"
            );
            BOOST_TEST(
                with_token(port, "GET", user_path(demoted), admin).json().at("role").as_string() == "customer"
            );
            const auto former = login(port, "self@example.com", "secret123").access;
            BOOST_TEST(
                send_json(
                    port,
                    "POST",
                    "/api/v1/categories",
                    R"({"name":"Nope","image":"https://x.com/t.png"})",
                    former
                )
                    .status == 403u
            );
        }
    }
}

// Answers that carry tokens are never stored by a cache; personal data only by the client's own.
BOOST_AUTO_TEST_CASE(token_answers_are_no_store_and_the_profile_is_private) {
    const auto port = shared_server().port();
    const auto reply = try_login(port, "john@mail.com", "changeme");
    BOOST_TEST_REQUIRE(reply.status == 201u);
    BOOST_TEST(reply.header("cache-control") == "no-store");
    BOOST_TEST(reply.header("pragma") == "no-cache");
    const auto refresh_token = std::string(reply.json().at("refresh_token").as_string());
    const auto refreshed =
        post_json(port, "/api/v1/auth/refresh-token", R"({"refreshToken":")" + refresh_token + "\"}");
    BOOST_TEST(refreshed.status == 201u);
    BOOST_TEST(refreshed.header("cache-control") == "no-store");
    const auto access = std::string(reply.json().at("access_token").as_string());
    const auto profile = with_token(port, "GET", "/api/v1/auth/profile", access);
    BOOST_TEST(profile.status == 200u);
    BOOST_TEST(profile.header("cache-control") == "private, no-store");
    const auto graph = send_request(
        port,
        {.method = "POST",
         .target = "/graphql",
         .body =
             R"({"query":"mutation { login(email: \"john@mail.com\", password: \"changeme\") { access_token } }"})",
         .content_type = "application/json"}
    );
    BOOST_TEST(graph.status == 200u);
    BOOST_TEST(graph.header("cache-control") == "no-store");
}

// Five failed logins of one account are free; then 429 with Retry-After on /api/v1, GraphQL and (per
// username) /api/v3, the right password included, until the pause ends; a success resets the budget; other
// accounts are not slowed; /metrics counts the refusals.
BOOST_AUTO_TEST_CASE(the_login_brake_answers_429_with_retry_after_on_every_surface) {
    auto config = accounts_config("memory");
    config.login_brake.first_pause = 1s;
    running_server server(config);
    const auto port = server.port();
    const double refused_before = metric(port, "storefront_login_refusals_total");
    for (int i = 0; i < 5; ++i) {
        BOOST_TEST(try_login(port, "john@mail.com", "guess" + std::to_string(i)).status == 401u);
    }
    const auto braked = try_login(port, "john@mail.com", "changeme");
    BOOST_TEST(braked.status == 429u);
    BOOST_TEST(braked.header("retry-after") == "1");
    BOOST_TEST(braked.json().at("statusCode").as_int64() == 429);
    const auto graph = send_request(
        port,
        {.method = "POST",
         .target = "/graphql",
         .body =
             R"({"query":"mutation { login(email: \"john@mail.com\", password: \"changeme\") { access_token } }"})",
         .content_type = "application/json"}
    );
    BOOST_TEST(graph.status == 429u);
    BOOST_TEST(graph.header("retry-after") == "1");
    BOOST_TEST(graph.body.find("TOO_MANY_REQUESTS") != std::string::npos, graph.body);
    BOOST_TEST(try_login(port, "maria@mail.com", "12345").status == 201u);  // another account: untouched
    BOOST_TEST(metric(port, "storefront_login_refusals_total") - refused_before == 2.0);

    // After the pause: one more attempt; the right password resets the budget.
    std::this_thread::sleep_for(1100ms);
    BOOST_TEST(try_login(port, "john@mail.com", "changeme").status == 201u);
    for (int i = 0; i < 5; ++i) {
        BOOST_TEST(try_login(port, "john@mail.com", "again" + std::to_string(i)).status == 401u);
    }
    BOOST_TEST(try_login(port, "john@mail.com", "again5").status == 429u);

    // The pet store's login, per username.
    for (int i = 0; i < 5; ++i) {
        BOOST_TEST(
            get(port, "/api/v3/user/login?username=user1&password=guess" + std::to_string(i)).status == 400u
        );
    }
    const auto pet = get(port, "/api/v3/user/login?username=user1&password=XXXXXXXXXXX");
    BOOST_TEST(pet.status == 429u);
    BOOST_TEST(!pet.header("retry-after").empty());
}

// Eight clients guessing one account at once get no more than the free failures between them, and another
// account's login is not slowed meanwhile.
BOOST_AUTO_TEST_CASE(the_brake_holds_under_concurrency_and_spares_other_accounts) {
    running_server server(accounts_config("memory"));
    const auto port = server.port();
    std::atomic<int> checked{0};
    std::atomic<int> refused{0};
    std::atomic<int> other{0};
    std::vector<std::thread> guessers;
    for (int t = 0; t < 8; ++t) {
        guessers.emplace_back([&, t] {
            for (int i = 0; i < 8; ++i) {
                const auto status =
                    try_login(port, "john@mail.com", "g" + std::to_string(t * 100 + i)).status;
                if (status == 429u) {
                    ++refused;
                } else if (status == 401u) {
                    ++checked;
                } else {
                    ++other;
                }
            }
        });
    }
    const auto started = std::chrono::steady_clock::now();
    const auto innocent = try_login(port, "maria@mail.com", "12345");
    const auto took = std::chrono::steady_clock::now() - started;
    for (auto& g : guessers) {
        g.join();
    }
    BOOST_TEST(innocent.status == 201u);
    BOOST_TEST(std::chrono::duration_cast<std::chrono::milliseconds>(took).count() < 2000);
    BOOST_TEST(checked.load() == 5);  // the free failures, not one more (the first pause is 5 s)
    BOOST_TEST(refused.load() == 64 - 5);
    BOOST_TEST(other.load() == 0);
}

// Past its budget a client is braked on any account (here with a budget of 3), and other clients are not.
BOOST_AUTO_TEST_CASE(the_brake_counts_failures_per_client_too) {
    auto config = accounts_config("memory");
    config.login_brake.client_free_failures = 3;
    running_server server(config);
    const auto port = server.port();
    BOOST_TEST(try_login(port, "a@nowhere.com", "x").status == 401u);
    BOOST_TEST(try_login(port, "b@nowhere.com", "x").status == 401u);
    BOOST_TEST(try_login(port, "c@nowhere.com", "x").status == 401u);
    const auto braked = try_login(port, "john@mail.com", "changeme");
    BOOST_TEST(braked.status == 429u);
    BOOST_TEST(!braked.header("retry-after").empty());
}

// Under roles, e-mails and roles are personal: the user list is for admins, a record for its user and admins
// (others see a 404, as if there were none), and neither is kept by a shared cache.
BOOST_AUTO_TEST_CASE(roles_hide_the_user_list_and_other_users_records) {
    running_server server(accounts_config("memory", core::write_policy::roles));
    const auto port = server.port();
    const auto id = register_user(port, "r@example.com");
    const auto own = login(port, "r@example.com", "secret123").access;
    const auto admin = login(port, "admin@mail.com", "admin123").access;
    BOOST_TEST(get(port, "/api/v1/users").status == 401u);
    BOOST_TEST(with_token(port, "GET", "/api/v1/users", own).status == 403u);
    const auto list = with_token(port, "GET", "/api/v1/users", admin);
    BOOST_TEST(list.status == 200u);
    BOOST_TEST(list.json().as_array().size() == 4u);
    BOOST_TEST(list.header("cache-control") == "private, no-store");
    BOOST_TEST(get(port, user_path(id)).status == 404u);
    BOOST_TEST(with_token(port, "GET", user_path(1), own).status == 404u);  // another user's record
    const auto mine = with_token(port, "GET", user_path(id), own);
    BOOST_TEST(mine.status == 200u);
    BOOST_TEST(mine.json().at("email").as_string() == "r@example.com");
    BOOST_TEST(mine.header("cache-control") == "private, no-store");
    BOOST_TEST(with_token(port, "GET", user_path(id), admin).status == 200u);
    // Under open the list stays public, as the public service's.
    BOOST_TEST(get(shared_server().port(), "/api/v1/users").status == 200u);
}

// Pet-store users: creating one stays open; replacing an existing one's password needs their own Basic
// credentials or a token with the admin:users scope.
BOOST_AUTO_TEST_CASE(pet_user_passwords_need_the_owner_or_an_admin_scope) {
    running_server server(accounts_config("memory"));
    const auto port = server.port();
    const auto created = post_json(port, "/api/v3/user", R"({"username":"owner45","password":"first1"})");
    BOOST_TEST_REQUIRE(created.status == 200u, created.body);
    const auto login_status = [&](const std::string& password) {
        return get(port, "/api/v3/user/login?username=owner45&password=" + password).status;
    };
    const auto put = [&](const std::string& body, const std::string& authorization) {
        http_request_spec spec{
            .method = "PUT",
            .target = "/api/v3/user/owner45",
            .body = body,
            .content_type = "application/json"};
        if (!authorization.empty()) {
            spec.headers.emplace_back("Authorization", authorization);
        }
        return send_request(port, spec);
    };
    const std::string new_password = R"({"username":"owner45","password":"stolen1"})";
    const auto anonymous = put(new_password, "");
    BOOST_TEST(anonymous.status == 401u);
    BOOST_TEST(anonymous.header("www-authenticate") == R"(Basic realm="petstore users")");
    BOOST_TEST(post_json(port, "/api/v3/user", new_password).status == 401u);  // POST over an existing user
    BOOST_TEST(post_json(port, "/api/v3/user/createWithList", "[" + new_password + "]").status == 401u);
    BOOST_TEST(put(new_password, "Basic b3duZXI0NTp3cm9uZw==").status == 401u);  // owner45:wrong
    BOOST_TEST(login_status("stolen1") == 400u);
    BOOST_TEST(login_status("first1") == 200u);
    // A profile change without a password stays open.
    BOOST_TEST(put(R"({"username":"owner45","lastName":"L"})", "").status == 200u);
    // The owner's own credentials (owner45:first1), then an admin:users token.
    BOOST_TEST(
        put(R"({"username":"owner45","password":"second2"})", "Basic b3duZXI0NTpmaXJzdDE=").status == 200u
    );
    BOOST_TEST(login_status("second2") == 200u);
    const core::pet_tokens tokens({test_pet_secret, std::chrono::seconds(600)});
    const auto admin_token = tokens.issue("admin-client", "admin:users", core::unix_now());
    const auto writer_token = tokens.issue("writer-client", "write:pets", core::unix_now());
    BOOST_TEST(put(R"({"username":"owner45","password":"third3"})", "Bearer " + writer_token).status == 401u);
    BOOST_TEST(put(R"({"username":"owner45","password":"third3"})", "Bearer " + admin_token).status == 200u);
    BOOST_TEST(login_status("third3") == 200u);
}

BOOST_AUTO_TEST_SUITE_END()
