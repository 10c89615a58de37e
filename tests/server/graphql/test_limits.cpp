// Limits and hostile documents: depth 20 accepted and 21 refused, thousands of aliases refused by the
// token limit, deep value nesting and oversized documents refused without a crash, and max_fields.

#include <chrono>
#include <string>

#include <boost/test/unit_test.hpp>

#include "storefront_schema.hpp"

namespace gql = storefront::graphql;

namespace {

// products { category { products { category ... { id } } } } with `depth` nested fields in all.
std::string nested(std::size_t depth) {
    std::string open;
    std::string close;
    for (std::size_t i = 1; i < depth; ++i) {
        open += (i % 2 == 1 ? "products { " : "category { ");
        close += " }";
    }
    return "{ " + open + "id" + close + " }";
}

gql::preparation prepare(const std::string& text, const gql::limits& bounds = {}) {
    return gql::prepare(gql::testing::storefront_schema(), text, bounds);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(graphql_limits)

BOOST_AUTO_TEST_CASE(depth) {
    BOOST_TEST(prepare(nested(20)).errors.empty());
    const auto deep = prepare(nested(21));
    BOOST_TEST_REQUIRE(deep.errors.size() == 1u);
    BOOST_TEST(deep.errors[0].message == "Query depth 21 exceeds the maximum depth 20.");
    BOOST_TEST(deep.errors[0].code == "GRAPHQL_VALIDATION_FAILED");
    // Through fragments, expanded.
    const auto via = prepare(
        "{ products { ...A } } fragment A on Product { category { ...B } } fragment B on Category { products "
        "{ "
        "id } }",
        gql::limits{.max_depth = 3}
    );
    BOOST_TEST(via.errors.at(0).message == "Query depth 4 exceeds the maximum depth 3.");
}

BOOST_AUTO_TEST_CASE(hostile_documents_fail_fast) {
    const auto start = std::chrono::steady_clock::now();
    std::string aliases = "{";
    for (int i = 0; i < 5000; ++i) {
        aliases += " a" + std::to_string(i) + ": categories { id }";
    }
    aliases += " }";
    const auto many = prepare(aliases, gql::limits{.max_document_bytes = 10'000'000});
    BOOST_TEST(many.parse_failed);
    BOOST_TEST(
        many.errors.at(0).message ==
        "Syntax Error: Document contains more than 15000 tokens. Parsing aborted."
    );

    std::string directives = "{ categories { id ";
    for (int i = 0; i < 3000; ++i) {
        directives += "@skip(if: false) ";
    }
    directives += "} }";
    BOOST_TEST(prepare(directives, gql::limits{.max_document_bytes = 10'000'000}).parse_failed);
    const auto repeated =
        prepare(directives, gql::limits{.max_tokens = 100000, .max_document_bytes = 10'000'000});
    BOOST_TEST_REQUIRE(repeated.errors.size() == 101u);
    BOOST_TEST(
        repeated.errors[0].message == "The directive \"@skip\" can only be used once at this location."
    );
    BOOST_TEST(
        repeated.errors[100].message == "Too many validation errors, error limit reached. Validation aborted."
    );

    const std::string brackets = "{ products(title: " + std::string(100000, '[') + " { id } }";
    const auto deep_values =
        prepare(brackets, gql::limits{.max_tokens = 1'000'000, .max_document_bytes = 10'000'000});
    BOOST_TEST(deep_values.parse_failed);
    BOOST_TEST(deep_values.errors.at(0).message == "Syntax Error: Nesting deeper than 100 levels.");

    std::string braces;
    for (int i = 0; i < 100000; ++i) {
        braces += "{a ";
    }
    BOOST_TEST(
        prepare(braces, gql::limits{.max_tokens = 1'000'000, .max_document_bytes = 10'000'000}).parse_failed
    );

    const auto big = prepare("{ categories { id } } # " + std::string(200000, 'x'));
    BOOST_TEST(big.parse_failed);
    BOOST_TEST(
        big.errors.at(0).message == "Syntax Error: Document exceeds the maximum size of 100000 bytes."
    );

    BOOST_TEST(prepare("{ categories { id } } # \xFF").parse_failed);
    BOOST_TEST(prepare("{ isAvailable(email: \"" + std::string(90000, 'x') + "\") }").errors.empty());

    // Fragments spread in many places: the overlap rule's work is bounded, depth is memoised.
    std::string fan = "{ products { ...F0 } }";
    for (int i = 0; i < 60; ++i) {
        fan += " fragment F" + std::to_string(i) + " on Product { id ...F" + std::to_string(i + 1) + " ...F" +
               std::to_string(i + 1) + " }";
    }
    fan += " fragment F60 on Product { id }";
    BOOST_TEST(prepare(fan).errors.empty());
    // A fragment spread inside its own sub-selections, merged by the overlap rule (found by fuzz_graphql).
    const auto cycle = prepare(
        "{ a: product(id: 1) { ...P } a: product(id: 1) { ...P } } fragment P on Product { category { "
        "products { "
        "...P } } }"
    );
    BOOST_TEST(cycle.errors.at(0).message == "Cannot spread fragment \"P\" within itself.");
    // A long chain of fragments, each nesting two fields: refused by depth, with bounded recursion.
    std::string chain = "{ products { ...F0 } }";
    for (int i = 0; i < 1300; ++i) {
        chain += " fragment F" + std::to_string(i) + " on Product { category { products { ...F" +
                 std::to_string(i + 1) + " } } }";
    }
    chain += " fragment F1300 on Product { id }";
    const auto long_chain = prepare(chain, gql::limits{.max_tokens = 100000});
    BOOST_TEST_REQUIRE(long_chain.errors.size() == 1u);
    BOOST_TEST(long_chain.errors[0].message == "Query depth 2602 exceeds the maximum depth 20.");
    const bool quick = std::chrono::steady_clock::now() - start < std::chrono::seconds(5);
    BOOST_TEST(quick);
}

BOOST_AUTO_TEST_CASE(max_fields) {
    gql::testing::store_fixture fixture;
    const auto p = prepare("{ categories { id name products { id title images } } }");
    BOOST_TEST_REQUIRE(p.document != nullptr);
    const auto ok =
        gql::execute(gql::testing::storefront_schema(), *p.document, "", {}, &fixture, gql::limits{});
    BOOST_TEST(ok.errors.empty());
    const auto over = gql::execute(
        gql::testing::storefront_schema(), *p.document, "", {}, &fixture, gql::limits{.max_fields = 10}
    );
    BOOST_TEST_REQUIRE(over.errors.size() == 1u);
    BOOST_TEST(over.errors[0].message == "Execution exceeded the maximum of 10 resolved fields.");
    BOOST_TEST(over.errors[0].code == "BAD_REQUEST");
    BOOST_TEST(over.data->is_null());
}

BOOST_AUTO_TEST_SUITE_END()
