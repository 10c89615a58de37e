// End to end over HTTP: each surface's OpenAPI document, as served, lists exactly the routes of the running
// router's tables (verb + pattern), with the tables' operation names and security that matches each route's
// access rule; the documents and the Swagger UI page come with ETag/304, Cache-Control and a strict CSP.

#include <set>
#include <string>
#include <tuple>

#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>

#include "core/sandbox.hpp"
#include "http_client.hpp"
#include "server/routing/router.hpp"
#include "sse_client.hpp"
#include "test_server.hpp"

namespace json = boost::json;
using namespace storefront;
using namespace storefront::test;

namespace {

struct surface {
    std::string prefix;    // "/api/v1"
    std::string document;  // its URL
};
const surface surfaces[] = {{"/api/v1", "/api/v1/openapi.json"}, {"/api/v3", "/api/v3/openapi.json"}};

std::string lower(std::string_view verb) {
    std::string out(verb);
    for (char& c : out) {
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    }
    return out;
}

// (method, full pattern, operation name) of every route of the running server under `prefix`.
using operation_row = std::tuple<std::string, std::string, std::string>;
std::set<operation_row> routes_under(const std::string& prefix) {
    std::set<operation_row> out;
    for (const server::route_table* table : shared_server().app().routes().tables()) {
        for (const server::route& r : table->routes) {
            if (r.pattern.starts_with(prefix + "/")) {
                out.emplace(lower(server::http::to_string(r.verb)), r.pattern, r.operation);
            }
        }
    }
    return out;
}

json::value fetch_document(const surface& s) {
    const auto reply = get(shared_server().port(), s.document);
    BOOST_TEST_REQUIRE(reply.status == 200u);
    BOOST_TEST(reply.header("content-type").starts_with("application/json"));
    return reply.json();
}

const std::set<std::string> http_methods = {
    "get", "put", "post", "delete", "options", "head", "patch", "trace"};

// (method, servers[0].url + path, operationId) of every operation in a document, or with `own_servers`
// those of the paths that name servers of their own (the inspector's, under /sandbox/{sandbox}), with
// that server's URL.
std::set<operation_row> operations_of(const json::value& doc, bool own_servers = false) {
    std::set<operation_row> out;
    for (const auto& [path, item] : doc.at("paths").as_object()) {
        const auto* servers = item.as_object().if_contains("servers");
        if ((servers != nullptr) != own_servers) {
            continue;
        }
        const std::string base((servers != nullptr ? *servers : doc.at("servers")).at(0).at("url").as_string()
        );
        for (const auto& [method, op] : item.as_object()) {
            if (http_methods.contains(std::string(method))) {
                out.emplace(
                    std::string(method),
                    base + std::string(path),
                    std::string(op.at("operationId").as_string())
                );
            }
        }
    }
    return out;
}

std::string describe(const std::set<operation_row>& rows) {
    std::string out;
    for (const auto& [method, path, op] : rows) {
        out += method + " " + path + " (" + op + "); ";
    }
    return out.empty() ? "none" : out;
}

// The security requirement objects of one operation, as "scheme:scope,scope" strings ("" = anonymous).
std::set<std::string> security_of(const json::value& doc, const server::route& r, const std::string& prefix) {
    const std::string path(r.pattern.substr(prefix.size()));
    const auto& op = doc.at("paths").at(path).at(lower(server::http::to_string(r.verb)));
    std::set<std::string> out;
    const auto* security = op.as_object().if_contains("security");
    if (security == nullptr) {
        out.insert("<not declared>");  // neither document has top-level security: every operation says
        return out;
    }
    if (security->as_array().empty()) {
        out.insert("");  // security: [] is anonymous
    }
    for (const auto& requirement : security->as_array()) {
        std::string text;
        for (const auto& [scheme, scopes] : requirement.as_object()) {
            text += std::string(scheme) + ":";
            for (const auto& scope : scopes.as_array()) {
                text += std::string(scope.as_string()) + ",";
            }
        }
        out.insert(text);
    }
    return out;
}

// What the document must declare for each access rule.
std::set<std::string> expected_security(server::access_rule rule) {
    using enum server::access_rule;
    switch (rule) {
        case open:
            return {""};
        case bearer:
            return {"bearerAuth:", "cookieAuth:"};  // the access token in the header or in the cookie
        case optional_bearer:
        case catalogue_write:
        case account_write:
            return {
                "", "bearerAuth:", "cookieAuth:"};  // depends on --write-policy; a token is always accepted
        case pet_api_key:
            return {"api_key:"};
        case pet_read:
            return {"api_key:", "petstore_auth:read:pets,"};
        case pet_write:
            return {"petstore_auth:write:pets,"};
    }
    return {};
}

}  // namespace

BOOST_AUTO_TEST_SUITE(openapi_documents)

BOOST_AUTO_TEST_CASE(each_document_lists_exactly_the_routes_of_its_surface) {
    for (const auto& s : surfaces) {
        BOOST_TEST_CONTEXT(s.document) {
            const auto doc = fetch_document(s);
            BOOST_TEST(doc.at("openapi").as_string() == "3.1.0");
            const auto in_document = operations_of(doc);
            const auto in_router = routes_under(s.prefix);
            BOOST_TEST_REQUIRE(!in_router.empty());
            std::set<operation_row> missing;
            std::set<operation_row> extra;
            std::set_difference(
                in_router.begin(),
                in_router.end(),
                in_document.begin(),
                in_document.end(),
                std::inserter(missing, missing.end())
            );
            std::set_difference(
                in_document.begin(),
                in_document.end(),
                in_router.begin(),
                in_router.end(),
                std::inserter(extra, extra.end())
            );
            BOOST_TEST(missing.empty(), "routes the document lacks: " << describe(missing));
            BOOST_TEST(extra.empty(), "operations no route serves: " << describe(extra));
        }
    }
}

// The inspector's routes are answered before the router (routing/inspector_routes.cpp), under a sandbox's
// prefix: the document lists them under a server of their own, and each answers a status and media type
// the document gives for it.
BOOST_AUTO_TEST_CASE(the_inspector_routes_are_documented_under_the_sandbox_prefix) {
    const auto doc = fetch_document(surfaces[0]);
    const std::set<operation_row> expected = {
        {"get", "/sandbox/{sandbox}/requests", "listSandboxRequests"},
        {"delete", "/sandbox/{sandbox}/requests", "clearSandboxRequests"},
        {"get", "/sandbox/{sandbox}/requests/stream", "followSandboxRequests"},
        {"get", "/sandbox/{sandbox}/inspector", "getInspectorPage"}};
    const auto documented = operations_of(doc, true);
    BOOST_TEST(documented == expected, "documented: " << describe(documented));

    const std::string box = "/sandbox/openapi-inspector";
    BOOST_TEST_REQUIRE(get(shared_server().port(), box + "/api/v1/products/1").status == 200u);
    // The media type the document gives `method path`'s answer of `status` ("" when it has no body).
    const auto documented_type = [&](const std::string& method, const std::string& path, unsigned status) {
        const auto& responses = doc.at("paths").at(path).at(method).at("responses");
        const auto* answer = responses.as_object().if_contains(std::to_string(status));
        BOOST_TEST_REQUIRE(answer != nullptr, method << " " << path << " does not document " << status);
        const auto* content = answer->as_object().if_contains("content");
        if (const auto* named = answer->as_object().if_contains("$ref");
            content == nullptr && named != nullptr) {
            const auto& ref = named->as_string();  // #/components/responses/NAME
            content = doc.at("components")
                          .at("responses")
                          .at(ref.subview(ref.rfind('/') + 1))
                          .as_object()
                          .if_contains("content");
        }
        return content == nullptr ? std::string() : std::string(content->as_object().begin()->key());
    };
    const auto list = get(shared_server().port(), box + "/requests");
    BOOST_TEST(list.status == 200u);
    BOOST_TEST(list.json().as_array().size() == 1u);
    BOOST_TEST(list.header("content-type").starts_with(documented_type("get", "/requests", 200)));
    const auto bad = get(shared_server().port(), box + "/requests?limit=0");
    BOOST_TEST(bad.status == 400u);
    BOOST_TEST(bad.header("content-type").starts_with(documented_type("get", "/requests", 400)));
    const auto page = get(shared_server().port(), box + "/inspector");
    BOOST_TEST(page.status == 200u);
    BOOST_TEST(page.header("content-type").starts_with(documented_type("get", "/inspector", 200)));
    {
        sse_client stream(shared_server().port(), box + "/requests/stream");
        stream.read_head();
        BOOST_TEST(stream.status == 200u);
        BOOST_TEST(
            stream.head.find("content-type: " + documented_type("get", "/requests/stream", 200)) !=
            std::string::npos
        );
    }
    const auto cleared =
        send_request(shared_server().port(), {.method = "DELETE", .target = box + "/requests"});
    BOOST_TEST(cleared.status == 204u);
    BOOST_TEST(documented_type("delete", "/requests", 204).empty());
    BOOST_TEST(get(shared_server().port(), box + "/requests").json().as_array().empty());
}

BOOST_AUTO_TEST_CASE(security_matches_each_routes_access_rule) {
    for (const auto& s : surfaces) {
        const auto doc = fetch_document(s);
        for (const server::route_table* table : shared_server().app().routes().tables()) {
            for (const server::route& r : table->routes) {
                if (!r.pattern.starts_with(s.prefix + "/")) {
                    continue;
                }
                BOOST_TEST_CONTEXT(server::http::to_string(r.verb) << " " << r.pattern) {
                    // The token endpoint is open to the router; its handler checks the client's HTTP Basic.
                    const auto expected = r.operation == "issueToken" ? std::set<std::string>{"clientBasic:"}
                                                                      : expected_security(r.access);
                    BOOST_TEST(security_of(doc, r, s.prefix) == expected);
                }
            }
        }
    }
}

BOOST_AUTO_TEST_CASE(documents_declare_security_schemes_and_error_bodies) {
    const auto v1 = fetch_document(surfaces[0]);
    const auto& bearer = v1.at("components").at("securitySchemes").at("bearerAuth");
    BOOST_TEST(bearer.at("scheme").as_string() == "bearer");
    BOOST_TEST(bearer.at("bearerFormat").as_string() == "JWT");
    const auto& cookie = v1.at("components").at("securitySchemes").at("cookieAuth");
    BOOST_TEST(cookie.at("type").as_string() == "apiKey");
    BOOST_TEST(cookie.at("in").as_string() == "cookie");
    BOOST_TEST(cookie.at("name").as_string() == "storefront_access");
    const auto& v1_error = v1.at("components").at("schemas").at("Error").at("properties").as_object();
    BOOST_TEST(v1_error.contains("message"));
    BOOST_TEST(v1_error.contains("error"));
    BOOST_TEST(v1_error.contains("statusCode"));

    const auto v3 = fetch_document(surfaces[1]);
    const auto& schemes = v3.at("components").at("securitySchemes");
    BOOST_TEST(schemes.at("api_key").at("in").as_string() == "header");
    BOOST_TEST(schemes.at("api_key").at("name").as_string() == "api_key");
    const auto& flow = schemes.at("petstore_auth").at("flows").at("clientCredentials");
    BOOST_TEST(flow.at("tokenUrl").as_string() == "/api/v3/oauth/token");
    BOOST_TEST(flow.at("scopes").as_object().contains("read:pets"));
    BOOST_TEST(flow.at("scopes").as_object().contains("write:pets"));
    const auto& v3_error = v3.at("components").at("schemas").at("Error").at("properties").as_object();
    BOOST_TEST(v3_error.contains("code"));
    BOOST_TEST(v3_error.contains("message"));
}

BOOST_AUTO_TEST_CASE(servers_are_relative_so_try_it_out_reaches_this_instance) {
    for (const auto& s : surfaces) {
        BOOST_TEST_CONTEXT(s.document) {
            const auto doc = fetch_document(s);
            // This instance's shared data, then a sandbox of the reader's choosing on this instance.
            BOOST_TEST(doc.at("servers").as_array().size() == 2u);
            BOOST_TEST(doc.at("servers").at(0).at("url").as_string() == s.prefix);
            BOOST_TEST(doc.at("servers").at(1).at("url").as_string() == "/sandbox/{sandbox}" + s.prefix);
            const auto& variable = doc.at("servers").at(1).at("variables").at("sandbox");
            BOOST_TEST(core::valid_sandbox_id(std::string(variable.at("default").as_string())));
        }
    }
}

BOOST_AUTO_TEST_CASE(documents_revalidate_with_etag) {
    for (const auto& s : surfaces) {
        BOOST_TEST_CONTEXT(s.document) {
            const auto first = get(shared_server().port(), s.document);
            const std::string etag = first.header("etag");
            BOOST_TEST(!etag.empty());
            BOOST_TEST(first.header("cache-control") == "no-cache");
            const auto again = send_request(
                shared_server().port(), {.target = s.document, .headers = {{"If-None-Match", etag}}}
            );
            BOOST_TEST(again.status == 304u);
            BOOST_TEST(again.body.empty());
            const auto stale = send_request(
                shared_server().port(), {.target = s.document, .headers = {{"If-None-Match", "\"0\""}}}
            );
            BOOST_TEST(stale.status == 200u);
            BOOST_TEST(stale.body == first.body);
        }
    }
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(swagger_ui_page)

BOOST_AUTO_TEST_CASE(page_loads_only_its_own_files_under_a_strict_policy) {
    const auto page = get(shared_server().port(), "/docs");
    BOOST_TEST_REQUIRE(page.status == 200u);
    BOOST_TEST(page.header("content-type") == "text/html; charset=utf-8");
    const std::string csp = page.header("content-security-policy");
    BOOST_TEST(csp.find("default-src 'none'") != std::string::npos);
    BOOST_TEST(csp.find("script-src 'self'") != std::string::npos);
    BOOST_TEST(csp.find("unsafe-eval") == std::string::npos);
    BOOST_TEST(csp.find("unsafe-inline") == std::string::npos);
    // No inline script for the policy to forbid: every <script> has a src on this origin.
    BOOST_TEST(page.body.find("<script>") == std::string::npos);
    for (const std::string file :
         {"/docs/swagger-ui-bundle.js",
          "/docs/swagger-ui-standalone-preset.js",
          "/docs/docs-init.js",
          "/docs/swagger-ui.css",
          "/docs/docs.css",
          "/docs/favicon-32x32.png"}) {
        BOOST_TEST_CONTEXT(file) {
            BOOST_TEST(page.body.find("\"" + file + "\"") != std::string::npos);
            const auto reply = get(shared_server().port(), file);
            BOOST_TEST(reply.status == 200u);
            BOOST_TEST(reply.body.size() > 100u);
            BOOST_TEST(!reply.header("etag").empty());
        }
    }
    BOOST_TEST(get(shared_server().port(), "/docs/").status == 200u);
}

BOOST_AUTO_TEST_CASE(media_types_and_cache_policy_per_file) {
    const auto js = get(shared_server().port(), "/docs/swagger-ui-bundle.js");
    BOOST_TEST(js.header("content-type") == "text/javascript; charset=utf-8");
    BOOST_TEST(js.header("cache-control") == "public, max-age=86400");
    const auto css = get(shared_server().port(), "/docs/swagger-ui.css");
    BOOST_TEST(css.header("content-type") == "text/css; charset=utf-8");
    const auto init = get(shared_server().port(), "/docs/docs-init.js");
    BOOST_TEST(init.header("cache-control") == "no-cache");
    BOOST_TEST(init.body.find("/api/v1/openapi.json") != std::string::npos);
    BOOST_TEST(init.body.find("/api/v3/openapi.json") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(unknown_files_and_the_documents_under_docs_are_404) {
    for (const std::string target : {"/docs/nope.js", "/docs/store-v1.json", "/docs/..%2Fstore-v1.json"}) {
        BOOST_TEST_CONTEXT(target) {
            BOOST_TEST(get(shared_server().port(), target).status == 404u);
        }
    }
    const auto post = post_json(shared_server().port(), "/docs", "{}");
    BOOST_TEST(post.status == 405u);
}

BOOST_AUTO_TEST_SUITE_END()
