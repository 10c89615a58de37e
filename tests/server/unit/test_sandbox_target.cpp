// The /sandbox/{id} prefix and X-Sandbox header rules (routing/sandbox_target). Which requests count as
// writes is the route rows' data (test_route_policy.cpp).

#include <string>

#include <boost/test/unit_test.hpp>

#include "server/routing/sandbox_target.hpp"

using namespace storefront;
using namespace storefront::server;
using core::sandbox_mode;

namespace {

or_response<sandbox_target> named(
    std::string_view path,
    std::string_view header = {},
    bool has_header = false,
    sandbox_mode mode = sandbox_mode::on
) {
    return sandbox_of("GET", path, header, has_header, mode);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(sandbox_target_rules)

BOOST_AUTO_TEST_CASE(the_prefix_names_the_sandbox_and_leaves_the_usual_path) {
    const auto t = named("/sandbox/class-7/api/v1/products/3");
    BOOST_TEST_REQUIRE(t.has_value());
    BOOST_TEST(t->id == "class-7");
    BOOST_TEST(t->path == "/api/v1/products/3");
    BOOST_TEST(!t->whole_sandbox);
    const auto whole = named("/sandbox/class-7");
    BOOST_TEST_REQUIRE(whole.has_value());
    BOOST_TEST(whole->whole_sandbox);
    const auto shared = named("/api/v1/products");
    BOOST_TEST_REQUIRE(shared.has_value());
    BOOST_TEST(shared->id.empty());
    BOOST_TEST(shared->path == "/api/v1/products");
    // Only the segment "sandbox" is the prefix.
    BOOST_TEST(named("/sandboxes/abcd/api/v1/products")->id.empty());
}

BOOST_AUTO_TEST_CASE(the_header_names_the_sandbox_on_the_usual_paths) {
    const auto t = named("/api/v3/pet/1", "team-a", true);
    BOOST_TEST_REQUIRE(t.has_value());
    BOOST_TEST(t->id == "team-a");
    BOOST_TEST(t->path == "/api/v3/pet/1");
    BOOST_TEST(named("/sandbox/team-a/api/v3/pet/1", "team-a", true).has_value());
}

BOOST_AUTO_TEST_CASE(bad_ids_and_disagreements_are_400) {
    for (const auto* path :
         {"/sandbox/abc/api/v1/products",
          "/sandbox//api/v1/products",
          "/sandbox/a.bc/x",
          "/sandbox",
          "/sandbox/"}) {
        const auto t = named(path);
        BOOST_TEST_REQUIRE(!t.has_value(), path);
        BOOST_TEST(t.error().status == http::status::bad_request, path);
    }
    BOOST_TEST(named("/api/v1/products", "ab", true).error().status == http::status::bad_request);
    BOOST_TEST(named("/api/v1/products", "", true).error().status == http::status::bad_request);
    BOOST_TEST(
        named("/sandbox/abcd/api/v1/products", "efgh", true).error().status == http::status::bad_request
    );
}

BOOST_AUTO_TEST_CASE(off_refuses_the_prefix_with_404_and_the_header_with_400) {
    BOOST_TEST(
        named("/sandbox/abcd/api/v1/products", {}, false, sandbox_mode::off).error().status ==
        http::status::not_found
    );
    BOOST_TEST(
        named("/api/v1/products", "abcd", true, sandbox_mode::off).error().status == http::status::bad_request
    );
    BOOST_TEST(named("/api/v1/products", {}, false, sandbox_mode::off).has_value());
}

BOOST_AUTO_TEST_CASE(the_access_log_names_a_valid_sandbox_only) {
    http::request<http::string_body> by_prefix{
        http::verb::get, "/sandbox/class-7/api/v1/products?limit=1", 11};
    BOOST_TEST(sandbox_named(by_prefix) == "class-7");
    http::request<http::string_body> by_header{http::verb::get, "/api/v1/products", 11};
    by_header.set("X-Sandbox", "team-a");
    BOOST_TEST(sandbox_named(by_header) == "team-a");
    http::request<http::string_body> bad{http::verb::get, "/sandbox/x/api/v1/products", 11};
    BOOST_TEST(sandbox_named(bad).empty());
    http::request<http::string_body> none{http::verb::get, "/api/v1/products", 11};
    BOOST_TEST(sandbox_named(none).empty());
}

BOOST_AUTO_TEST_SUITE_END()
