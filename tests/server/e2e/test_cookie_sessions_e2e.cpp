// End to end over HTTP, on every backend: the login cookies (issue 44) and CORS with credentials. Login and
// refresh set both cookies with their attributes (Secure only when a trusted proxy says https), the access
// cookie authenticates /api/v1 and GraphQL when no Authorization header is sent (which always wins), a
// refresh with an empty body uses the refresh cookie, logout clears both and ends the login, state changes
// authenticated by the cookie pass the CSRF check only from this origin or an allowed one, answers and
// preflights echo allowed origins with credentials (never `*` with them), and a sandbox's cookie is refused
// elsewhere.

#include <string>

#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>

#include "backend_matrix.hpp"
#include "common/temp_dir.hpp"
#include "http_client.hpp"
#include "test_server.hpp"

namespace json = boost::json;
using namespace storefront;
using namespace storefront::test;

namespace {

constexpr const char* app_origin = "http://localhost:5173";  // allowed by the wildcard
constexpr const char* evil_origin = "http://evil.example";

server::server_config cookie_config(const std::string& storage) {
    auto c = config_on(storage);
    c.cors = server::cors_origins::parse("http://localhost:*, https://shop.example");
    return c;
}

// The value of cookie `name` in the reply's Set-Cookie fields (joined with ", "), or "<none>".
std::string set_cookie_of(const http_reply& reply, const std::string& name) {
    const std::string all = reply.header("set-cookie");
    const auto at = all.find(name + "=");
    if (at == std::string::npos) {
        return "<none>";
    }
    const auto end = all.find(", ", at);  // the next field (our attributes hold no comma)
    return all.substr(at, end == std::string::npos ? std::string::npos : end - at);
}

std::string cookie_token(const std::string& set_cookie) {
    const auto eq = set_cookie.find('=');
    return set_cookie.substr(eq + 1, set_cookie.find(';') - eq - 1);
}

http_reply request(
    std::uint16_t port,
    const std::string& method,
    const std::string& target,
    std::vector<std::pair<std::string, std::string>> headers,
    const std::string& body = {}
) {
    http_request_spec spec{.method = method, .target = target, .body = body};
    if (!body.empty()) {
        spec.content_type = "application/json";
    }
    spec.headers = std::move(headers);
    return send_request(port, spec);
}

struct cookies {
    std::string access;
    std::string refresh;
    [[nodiscard]] std::string header() const {
        return "storefront_access=" + access + "; storefront_refresh=" + refresh;
    }
};

cookies register_and_login(std::uint16_t port, const std::string& email, const std::string& prefix = {}) {
    const auto made = request(
        port,
        "POST",
        prefix + "/api/v1/users",
        {},
        R"({"name":"Cookie","email":")" + email +
            R"(","password":"secret123","avatar":"https://x.com/a.png"})"
    );
    BOOST_TEST_REQUIRE((made.status == 201u || made.status == 200u), made.body);
    const auto reply = request(
        port,
        "POST",
        prefix + "/api/v1/auth/login",
        {{"Origin", app_origin}},
        R"({"email":")" + email + R"(","password":"secret123"})"
    );
    BOOST_TEST_REQUIRE(reply.status == 201u, reply.body);
    return {
        cookie_token(set_cookie_of(reply, "storefront_access")),
        cookie_token(set_cookie_of(reply, "storefront_refresh"))};
}

}  // namespace

BOOST_AUTO_TEST_SUITE(cookie_sessions)

BOOST_AUTO_TEST_CASE(login_refresh_and_logout_set_and_clear_the_cookies) {
    temp_dir dir;
    for (const auto& b : backends(dir, "cookies.db")) {
        BOOST_TEST_CONTEXT(b.name) {
            running_server srv(cookie_config(b.storage));
            const auto port = srv.port();
            request(
                port,
                "POST",
                "/api/v1/users",
                {},
                R"({"name":"C","email":"c1@example.com","password":"secret123","avatar":"https://x.com/a.png"})"
            );
            const auto login = request(
                port,
                "POST",
                "/api/v1/auth/login",
                {{"Origin", app_origin}},
                R"({"email":"c1@example.com","password":"secret123"})"
            );
            BOOST_TEST_REQUIRE(login.status == 201u, login.body);
            // The JSON body is unchanged; the cookies hold the same tokens.
            const auto body = login.json().as_object();
            BOOST_TEST(body.size() == 2u);
            const std::string access = json::value_to<std::string>(body.at("access_token"));
            const std::string refresh = json::value_to<std::string>(body.at("refresh_token"));
            const auto access_cookie = set_cookie_of(login, "storefront_access");
            const auto refresh_cookie = set_cookie_of(login, "storefront_refresh");
            BOOST_TEST(
                access_cookie ==
                "storefront_access=" + access + "; Path=/; Max-Age=1728000; HttpOnly; SameSite=Lax"
            );
            BOOST_TEST(
                refresh_cookie ==
                "storefront_refresh=" + refresh + "; Path=/; Max-Age=36000; HttpOnly; SameSite=Lax"
            );
            BOOST_TEST(login.header("access-control-allow-origin") == app_origin);
            BOOST_TEST(login.header("access-control-allow-credentials") == "true");

            // The access cookie alone reads the profile.
            const cookies jar{access, refresh};
            const auto profile =
                request(port, "GET", "/api/v1/auth/profile", {{"Cookie", "other=1; " + jar.header()}});
            BOOST_TEST(profile.status == 200u, profile.body);
            BOOST_TEST(profile.body.find("c1@example.com") != std::string::npos);
            // Authorization always wins, even a bad one.
            const auto bad_header = request(
                port,
                "GET",
                "/api/v1/auth/profile",
                {{"Cookie", jar.header()}, {"Authorization", "Bearer nonsense"}}
            );
            BOOST_TEST(bad_header.status == 401u);
            // A cookie that is not a token is refused as a bad token would be.
            BOOST_TEST(
                request(port, "GET", "/api/v1/auth/profile", {{"Cookie", "storefront_access=junk"}}).status ==
                401u
            );
            BOOST_TEST(
                request(port, "GET", "/api/v1/auth/profile", {{"Cookie", "storefront_access=a b"}}).status ==
                401u
            );

            // GraphQL reads the cookie too.
            const auto graph = request(
                port,
                "POST",
                "/graphql",
                {{"Cookie", jar.header()}, {"Origin", app_origin}},
                R"({"query":"{ myProfile { email } }"})"
            );
            BOOST_TEST(graph.status == 200u, graph.body);
            BOOST_TEST(graph.body.find("c1@example.com") != std::string::npos, graph.body);

            // A refresh with an empty body uses the refresh cookie, and sets new cookies.
            const auto refreshed = request(
                port, "POST", "/api/v1/auth/refresh-token", {{"Cookie", jar.header()}, {"Origin", app_origin}}
            );
            BOOST_TEST_REQUIRE(refreshed.status == 201u, refreshed.body);
            const cookies next{
                cookie_token(set_cookie_of(refreshed, "storefront_access")),
                cookie_token(set_cookie_of(refreshed, "storefront_refresh"))};
            BOOST_TEST(next.refresh != refresh);
            BOOST_TEST(json::value_to<std::string>(refreshed.json().at("refresh_token")) == next.refresh);
            // The new access cookie works; the spent refresh cookie is refused (rotation), as a spent token
            // is.
            BOOST_TEST(
                request(port, "GET", "/api/v1/auth/profile", {{"Cookie", next.header()}}).status == 200u
            );
            BOOST_TEST(
                request(
                    port,
                    "POST",
                    "/api/v1/auth/refresh-token",
                    {{"Cookie", jar.header()}, {"Origin", app_origin}}
                ).status == 401u
            );
            // A JSON body still wins over the cookie.
            BOOST_TEST(
                request(
                    port,
                    "POST",
                    "/api/v1/auth/refresh-token",
                    {{"Cookie", next.header()}, {"Origin", app_origin}},
                    R"({"refreshToken":"not-a-token"})"
                )
                    .status == 401u
            );

            // Logout by cookie clears both cookies and ends the login.
            const auto fresh = register_and_login(port, "c2@example.com");
            const auto out = request(
                port, "POST", "/api/v1/auth/logout", {{"Cookie", fresh.header()}, {"Origin", app_origin}}
            );
            BOOST_TEST(out.status == 200u, out.body);
            BOOST_TEST(
                set_cookie_of(out, "storefront_access") ==
                "storefront_access=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax"
            );
            BOOST_TEST(
                set_cookie_of(out, "storefront_refresh") ==
                "storefront_refresh=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax"
            );
            BOOST_TEST(
                request(port, "GET", "/api/v1/auth/profile", {{"Cookie", fresh.header()}}).status == 401u
            );
            BOOST_TEST(
                request(
                    port,
                    "POST",
                    "/api/v1/auth/refresh-token",
                    {{"Cookie", fresh.header()}, {"Origin", app_origin}}
                ).status == 401u
            );
        }
    }
}

BOOST_AUTO_TEST_CASE(cookie_state_changes_pass_the_csrf_check_only_from_known_origins) {
    running_server srv(cookie_config("memory"));
    const auto port = srv.port();
    const auto jar = register_and_login(port, "csrf@example.com");
    const auto me = request(port, "GET", "/api/v1/auth/profile", {{"Cookie", jar.header()}});
    BOOST_TEST_REQUIRE(me.status == 200u, me.body);
    const std::string path = "/api/v1/users/" + std::to_string(me.json().at("id").as_int64());
    const std::string self = "http://127.0.0.1";  // this origin, as the Host the test client sends names it
    const auto rename = [&](std::vector<std::pair<std::string, std::string>> headers,
                            const std::string& name) {
        return request(port, "PUT", path, std::move(headers), R"({"name":")" + name + R"("})");
    };
    // From another site: 403 JSON, nothing changed.
    const auto evil = rename({{"Cookie", jar.header()}, {"Origin", evil_origin}}, "Evil");
    BOOST_TEST(evil.status == 403u, evil.body);
    BOOST_TEST(evil.json().at("statusCode").as_int64() == 403);
    BOOST_TEST(evil.header("access-control-allow-credentials").empty());
    BOOST_TEST(rename({{"Cookie", jar.header()}, {"Sec-Fetch-Site", "cross-site"}}, "Evil").status == 403u);
    BOOST_TEST(rename({{"Cookie", jar.header()}}, "Evil").status == 403u);  // no Origin, no Sec-Fetch-Site
    BOOST_TEST(request(port, "GET", path, {}).body.find("Evil") == std::string::npos);
    // From an allowed origin, this origin, or a same-origin fetch: allowed.
    BOOST_TEST(rename({{"Cookie", jar.header()}, {"Origin", app_origin}}, "FromApp").status == 200u);
    BOOST_TEST(rename({{"Cookie", jar.header()}, {"Origin", self}}, "FromSelf").status == 200u);
    BOOST_TEST(
        rename({{"Cookie", jar.header()}, {"Sec-Fetch-Site", "same-origin"}}, "SameOrigin").status == 200u
    );
    BOOST_TEST(request(port, "GET", path, {}).body.find("SameOrigin") != std::string::npos);
    // A bearer token is not affected by Origin, cookie or not.
    BOOST_TEST(
        rename({{"Authorization", "Bearer " + jar.access}, {"Origin", evil_origin}}, "Bearer").status == 200u
    );
    BOOST_TEST(
        rename(
            {{"Authorization", "Bearer " + jar.access}, {"Cookie", jar.header()}, {"Origin", evil_origin}},
            "Both"
        )
            .status == 200u
    );
    // Reads are not state changes: a cross-site GET with the cookie is answered (the browser hides it).
    BOOST_TEST(
        request(
            port, "GET", "/api/v1/auth/profile", {{"Cookie", jar.header()}, {"Origin", evil_origin}}
        ).status == 200u
    );
    // GraphQL mutations are checked the same way.
    const auto graph = request(
        port,
        "POST",
        "/graphql",
        {{"Cookie", jar.header()}, {"Origin", evil_origin}},
        R"({"query":"{ myProfile { email } }"})"
    );
    BOOST_TEST(graph.status == 403u, graph.body);
}

BOOST_AUTO_TEST_CASE(cors_echoes_allowed_origins_with_credentials_only) {
    running_server srv(cookie_config("memory"));
    const auto port = srv.port();
    const auto allowed = request(port, "GET", "/api/v1/categories", {{"Origin", "https://shop.example"}});
    BOOST_TEST(allowed.header("access-control-allow-origin") == "https://shop.example");
    BOOST_TEST(allowed.header("access-control-allow-credentials") == "true");
    BOOST_TEST(allowed.header("vary").find("Origin") != std::string::npos);
    const auto other = request(port, "GET", "/api/v1/categories", {{"Origin", evil_origin}});
    BOOST_TEST(other.header("access-control-allow-origin") == "*");
    BOOST_TEST(other.header("access-control-allow-credentials").empty());
    BOOST_TEST(other.header("vary").find("Origin") != std::string::npos);
    // The same bytes again (the replay cache) keep their own origin.
    BOOST_TEST(
        request(
            port, "GET", "/api/v1/categories", {{"Origin", evil_origin}}
        ).header("access-control-allow-origin") == "*"
    );
    // Preflights: the same origin and credentials headers.
    const auto preflight = request(
        port,
        "OPTIONS",
        "/api/v1/auth/profile",
        {{"Origin", app_origin},
         {"Access-Control-Request-Method", "GET"},
         {"Access-Control-Request-Headers", "content-type"}}
    );
    BOOST_TEST(preflight.status == 204u);
    BOOST_TEST(preflight.header("access-control-allow-origin") == app_origin);
    BOOST_TEST(preflight.header("access-control-allow-credentials") == "true");
    BOOST_TEST(!preflight.header("access-control-allow-methods").empty());
    const auto refused = request(port, "OPTIONS", "/api/v1/auth/profile", {{"Origin", evil_origin}});
    BOOST_TEST(refused.header("access-control-allow-origin") == "*");
    BOOST_TEST(refused.header("access-control-allow-credentials").empty());

    // By default: `*` and no credentials, whatever the Origin; no Vary: Origin.
    running_server plain(config_on("memory"));
    const auto by_default = request(plain.port(), "GET", "/api/v1/categories", {{"Origin", app_origin}});
    BOOST_TEST(by_default.header("access-control-allow-origin") == "*");
    BOOST_TEST(by_default.header("access-control-allow-credentials").empty());
    BOOST_TEST(by_default.header("vary").find("Origin") == std::string::npos);
}

BOOST_AUTO_TEST_CASE(secure_cookies_behind_a_trusted_proxy_that_says_https) {
    auto config = cookie_config("memory");
    config.proxies = server::trusted_proxies::parse("127.0.0.1");
    running_server srv(config);
    const auto port = srv.port();
    request(
        port,
        "POST",
        "/api/v1/users",
        {},
        R"({"name":"S","email":"s@example.com","password":"secret123","avatar":"https://x.com/a.png"})"
    );
    const std::string credentials = R"({"email":"s@example.com","password":"secret123"})";
    const auto https =
        request(port, "POST", "/api/v1/auth/login", {{"X-Forwarded-Proto", "https"}}, credentials);
    BOOST_TEST(set_cookie_of(https, "storefront_access").ends_with("; Secure"));
    BOOST_TEST(set_cookie_of(https, "storefront_refresh").ends_with("; Secure"));
    const auto http =
        request(port, "POST", "/api/v1/auth/login", {{"X-Forwarded-Proto", "http"}}, credentials);
    BOOST_TEST(!set_cookie_of(http, "storefront_access").ends_with("; Secure"));

    // From a peer that is not a trusted proxy the header is not believed.
    running_server direct(cookie_config("memory"));
    request(
        direct.port(),
        "POST",
        "/api/v1/users",
        {},
        R"({"name":"S","email":"s@example.com","password":"secret123","avatar":"https://x.com/a.png"})"
    );
    const auto spoofed =
        request(direct.port(), "POST", "/api/v1/auth/login", {{"X-Forwarded-Proto", "https"}}, credentials);
    BOOST_TEST(set_cookie_of(spoofed, "storefront_access").find("Secure") == std::string::npos);
}

BOOST_AUTO_TEST_CASE(a_sandbox_cookie_is_refused_elsewhere) {
    running_server srv(cookie_config("memory"));
    const auto port = srv.port();
    const auto jar = register_and_login(port, "box@example.com", "/sandbox/cookiebox1");
    BOOST_TEST(
        request(port, "GET", "/sandbox/cookiebox1/api/v1/auth/profile", {{"Cookie", jar.header()}}).status ==
        200u
    );
    BOOST_TEST(
        request(
            port, "GET", "/api/v1/auth/profile", {{"Cookie", jar.header()}, {"X-Sandbox", "cookiebox1"}}
        ).status == 200u
    );
    BOOST_TEST(request(port, "GET", "/api/v1/auth/profile", {{"Cookie", jar.header()}}).status == 401u);
    BOOST_TEST(
        request(port, "GET", "/sandbox/cookiebox2/api/v1/auth/profile", {{"Cookie", jar.header()}}).status ==
        401u
    );
}

BOOST_AUTO_TEST_SUITE_END()
