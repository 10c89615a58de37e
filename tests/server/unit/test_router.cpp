// The router in process (no socket): per-segment precedence of literal over "{param}" segments whatever
// the table order, fallback when a literal branch leads nowhere, 404/405 with Allow, HEAD and OPTIONS.

#include <array>
#include <string>

#include <boost/test/unit_test.hpp>

#include "server/api/petstore/routes.hpp"
#include "server/api/store/routes.hpp"
#include "server/routing/router.hpp"

using namespace storefront;
using namespace storefront::server;

namespace {

handler_result unused_handler(request_context&, void*) {
    co_return response{};
}

using enum access_rule;
using enum body_policy;
using enum data_change;
using http::verb;

// Deliberately listed with the parameter routes first: order must not decide.
// clang-format off
constexpr std::array test_routes{
    route{verb::get,  "/t/products/{id}",                &unused_handler, open, none,         "getProduct",    reads},
    route{verb::put,  "/t/products/{id}",                &unused_handler, open, json_or_form, "updateProduct", writes},
    route{verb::get,  "/t/products/{id}/related",        &unused_handler, open, none,         "related",       reads},
    route{verb::get,  "/t/products/slug/{slug}",         &unused_handler, open, none,         "bySlug",        reads},
    route{verb::get,  "/t/products/slug/{slug}/related", &unused_handler, open, none,         "relatedBySlug", reads},
    route{verb::get,  "/t/products/slug/special",        &unused_handler, open, none,         "special",       reads},
    route{verb::post, "/t/products",                     &unused_handler, open, json_or_form, "create",        writes},
    route{verb::get,  "/t/a/{x}/c",                      &unused_handler, open, none,         "paramThenC",    reads},
    route{verb::get,  "/t/a/b/d",                        &unused_handler, open, none,         "literalBD",     reads},
};
// clang-format on
constexpr route_table test_table{"/t", error_style::store, test_routes, request_logging::logged};

std::string_view operation_of(const router& r, verb v, std::string_view path) {
    const auto m = r.match(v, path);
    return m.outcome == route_match::kind::found ? m.matched->operation : std::string_view("-");
}

}  // namespace

BOOST_AUTO_TEST_SUITE(router_matching)

BOOST_AUTO_TEST_CASE(literal_segments_win_per_segment_whatever_the_order) {
    const router r({&test_table});
    const std::vector<std::pair<std::string, std::string>> table{
        {"/t/products/7", "getProduct"},
        {"/t/products/slug", "getProduct"},  // "slug" alone is an id here (the handler refuses it)
        {"/t/products/slug/red-hoodie", "bySlug"},
        {"/t/products/slug/special", "special"},
        {"/t/products/slug/related", "bySlug"},  // literal "slug" at segment 2 beats {id} there
        {"/t/products/slug/x/related", "relatedBySlug"},
        {"/t/products/7/related", "related"},
        {"/t/a/b/c", "paramThenC"},  // the literal "b" branch has no "c": falls back to {x}
        {"/t/a/b/d", "literalBD"},
    };
    for (const auto& [path, operation] : table) {
        BOOST_TEST_CONTEXT(path) {
            BOOST_TEST(operation_of(r, verb::get, path) == operation);
        }
    }
}

BOOST_AUTO_TEST_CASE(captured_parameters_are_named_and_raw) {
    const router r({&test_table});
    const auto m = r.match(verb::get, "/t/products/slug/a%20b/related");
    BOOST_REQUIRE(m.outcome == route_match::kind::found);
    BOOST_REQUIRE_EQUAL(m.params.size(), 1u);
    BOOST_TEST(m.params[0].name == "slug");
    BOOST_TEST(m.params[0].value == "a%20b");
}

BOOST_AUTO_TEST_CASE(unknown_paths_and_wrong_verbs) {
    const router r({&test_table});
    for (const std::string path :
         {"/t", "/t/nothing", "/t/products/7/unknown", "/t/products//related", "/x"}) {
        BOOST_TEST_CONTEXT(path) {
            BOOST_TEST((r.match(verb::get, path).outcome == route_match::kind::not_found));
        }
    }
    const auto wrong = r.match(verb::delete_, "/t/products/7");
    BOOST_TEST((wrong.outcome == route_match::kind::method_not_allowed));
    BOOST_TEST(wrong.allow == "GET, HEAD, PUT, OPTIONS");  // alphabetical, HEAD after GET
    BOOST_TEST((r.match(verb::get, "/t/products").outcome == route_match::kind::method_not_allowed));
    BOOST_TEST(r.match(verb::get, "/t/products").allow == "POST, OPTIONS");
    BOOST_TEST(operation_of(r, verb::head, "/t/products/7") == "getProduct");  // HEAD is GET without a body
    BOOST_TEST((r.match(verb::options, "/t/products/7").outcome == route_match::kind::method_not_allowed));
}

BOOST_AUTO_TEST_CASE(a_table_with_a_route_twice_is_refused) {
    static constexpr std::array twice{
        route{verb::get, "/t/x/{id}", &unused_handler, open, none, "a", reads},
        route{verb::get, "/t/x/{id}", &unused_handler, open, none, "b", reads},
    };
    static constexpr route_table table{"/t", error_style::store, twice, request_logging::logged};
    BOOST_CHECK_THROW(router({&table}), std::logic_error);
}

BOOST_AUTO_TEST_CASE(the_service_tables_build_and_every_route_is_reachable) {
    const router r({&store_routes(), &petstore_routes()});
    for (const route_table* table : r.tables()) {
        for (const route& expected : table->routes) {
            // A concrete path for the pattern: every "{param}" becomes "1".
            std::string path;
            std::string_view pattern = expected.pattern;
            while (!pattern.empty()) {
                const auto open_brace = pattern.find('{');
                path += pattern.substr(0, open_brace);
                if (open_brace == std::string_view::npos) {
                    break;
                }
                path += '1';
                pattern.remove_prefix(pattern.find('}', open_brace) + 1);
            }
            BOOST_TEST_CONTEXT(expected.pattern) {
                const auto m = r.match(expected.verb, path);
                BOOST_TEST((m.outcome == route_match::kind::found));
                BOOST_TEST((m.matched == &expected || m.matched->pattern.find('{') == std::string_view::npos)
                );
            }
        }
    }
}

BOOST_AUTO_TEST_SUITE_END()
