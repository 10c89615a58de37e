// Parser: the specification's example documents, shorthand queries, variables with defaults, fragments and
// directives, type-system text, and syntax errors with their line and column.

#include <string>
#include <vector>

#include <boost/test/unit_test.hpp>

#include "graphql/parser.hpp"

namespace gql = storefront::graphql;

BOOST_AUTO_TEST_SUITE(graphql_parser)

BOOST_AUTO_TEST_CASE(spec_examples_parse) {
    const std::vector<std::string> documents{
        "{ user(id: 4) { id name smallPic: profilePic(size: 64) bigPic: profilePic(size: 1024) } }",
        "query noFragments { user(id: 4) { friends(first: 10) { id name profilePic(size: 50) } } }",
        "query withFragments { user(id: 4) { friends(first: 10) { ...friendFields } } }\n"
        "fragment friendFields on User { id name profilePic(size: 50) }",
        "query inlineFragmentTyping { profiles(handles: [\"zuck\", \"coca-cola\"]) { handle ... on User { "
        "friends "
        "{ count } } ... on Page { likers { count } } } }",
        "query inlineFragmentNoType($expandedInfo: Boolean) { user(handle: \"zuck\") { id name ... "
        "@include(if: "
        "$expandedInfo) { firstName lastName birthday } } }",
        "mutation { likeStory(storyID: 12345) { story { likeCount } } }",
        "query getZuckProfile($devicePicSize: Int = 60, $list: [String!]! = [\"a\"], $o: In = {a: {b: "
        "null}}) { "
        "user(id: 4) { profilePic(size: $devicePicSize) } }",
        "{ field(arg: {key: ENUM_VALUE, other: [1, 2.5e3, true, null, \"\"\"block\"\"\"]}) }",
        "subscription S { newMessage { body } }",
    };
    for (const auto& text : documents) {
        BOOST_TEST_CONTEXT(text) {
            BOOST_CHECK_NO_THROW((void)gql::parse_document(text, 1000));
        }
    }
}

BOOST_AUTO_TEST_CASE(tree_shape) {
    const auto doc = gql::parse_document(
        "query Q($id: ID! = 4 @d) @op { a: product(id: $id) @include(if: true) { ...F ... on Product { id } "
        "} }\n"
        "fragment F on Product { title }",
        1000
    );
    BOOST_TEST_REQUIRE(doc.operations.size() == 1u);
    const auto& op = doc.operations[0];
    BOOST_TEST(op.name == "Q");
    BOOST_TEST(op.variables.size() == 1u);
    BOOST_TEST(gql::to_string(op.variables[0].type) == "ID!");
    BOOST_TEST(op.variables[0].default_value->text == "4");
    BOOST_TEST(op.directives.size() == 1u);
    const auto& field = op.selections.at(0);
    BOOST_TEST(field.alias == "a");
    BOOST_TEST(field.name == "product");
    BOOST_TEST(field.response_name() == "a");
    BOOST_TEST(field.arguments.at(0).val.text == "id");
    BOOST_TEST((field.arguments.at(0).val.what == gql::value::kind::variable));
    BOOST_TEST(field.directives.at(0).name == "include");
    BOOST_TEST((field.selections.at(0).what == gql::selection::kind::fragment_spread));
    BOOST_TEST((field.selections.at(1).what == gql::selection::kind::inline_fragment));
    BOOST_TEST(field.selections.at(1).type_condition == "Product");
    BOOST_TEST(field.where.line == 1u);
    BOOST_TEST(field.where.column == 32u);
    BOOST_TEST(doc.fragments.at(0).name == "F");
    BOOST_TEST(doc.fragments.at(0).where.line == 2u);
}

BOOST_AUTO_TEST_CASE(syntax_errors_with_location) {
    struct row {
        std::string source;
        std::string message;
        std::size_t line;
        std::size_t column;
    };
    const std::vector<row> rows{
        {"{", "Syntax Error: Expected Name, found <EOF>.", 1, 2},
        {"{ a(x: ) }", "Syntax Error: Unexpected \")\".", 1, 8},
        {"query {\n  a(x:\n 1 }", R"(Syntax Error: Expected Name, found "}".)", 3, 4},
        {"fragment on on T { a }", R"(Syntax Error: Unexpected Name "on".)", 1, 10},
        {"fragment F T { a }", R"(Syntax Error: Expected "on", found Name "T".)", 1, 12},
        {"{ a }}", R"(Syntax Error: Unexpected "}".)", 1, 6},
        {"", "Syntax Error: Unexpected <EOF>.", 1, 1},
        {"query Q($v: Int = $w) { a }", R"(Syntax Error: Unexpected "$".)", 1, 19},
        {"{ a(x: [[[[1]]]) }", "Syntax Error: Unexpected \")\".", 1, 16},
        {"notakeyword { a }", R"(Syntax Error: Unexpected Name "notakeyword".)", 1, 1},
    };
    for (const auto& r : rows) {
        BOOST_TEST_CONTEXT(r.source) {
            try {
                (void)gql::parse_document(r.source, 1000);
                BOOST_ERROR("no error");
            } catch (const gql::syntax_error& e) {
                BOOST_TEST(std::string(e.what()) == r.message);
                BOOST_TEST(e.where().line == r.line);
                BOOST_TEST(e.where().column == r.column);
            }
        }
    }
}

BOOST_AUTO_TEST_CASE(deep_nesting_is_a_syntax_error) {
    for (const std::string open : {"[", "{a:"}) {
        BOOST_TEST_CONTEXT(open) {
            std::string text = "{ f(x: ";
            for (int i = 0; i < 100000; ++i) {
                text += open;
            }
            BOOST_CHECK_THROW((void)gql::parse_document(text, 10'000'000), gql::syntax_error);
        }
    }
    std::string selections;
    for (int i = 0; i < 5000; ++i) {
        selections += "{ a ";
    }
    BOOST_CHECK_THROW((void)gql::parse_document(selections, 10'000'000), gql::syntax_error);
}

BOOST_AUTO_TEST_CASE(type_system_definitions) {
    const auto types = gql::parse_sdl(
        "\"\"\"doc\"\"\" scalar DateTime\n"
        "type Query { a(x: Int = 3, y: [String!]!): [A!]! @deprecated(reason: \"no\") b: Int }\n"
        "input I { f: Int! g: String }\nenum E { X Y @deprecated }\nunion U = | A | B\ninterface N { id: ID! "
        "}"
    );
    BOOST_TEST_REQUIRE(types.size() == 6u);
    BOOST_TEST(types[1].fields.size() == 2u);
    BOOST_TEST(types[1].fields[0].arguments.size() == 2u);
    BOOST_TEST(gql::to_string(types[1].fields[0].arguments[1].type) == "[String!]!");
    BOOST_TEST(types[3].fields.size() == 2u);
    BOOST_TEST(types[4].members.size() == 2u);
    BOOST_CHECK_THROW((void)gql::parse_sdl("type Q { a }"), gql::syntax_error);
}

BOOST_AUTO_TEST_SUITE_END()
