// Lexer: every token kind, strings and block strings, escapes and surrogate pairs, numbers, and the
// syntax errors of bad input (invalid UTF-8, control characters, unterminated strings, malformed numbers).

#include <string>
#include <vector>

#include <boost/test/unit_test.hpp>

#include "graphql/lexer.hpp"

namespace gql = storefront::graphql;

namespace {

std::string syntax_message(const std::string& source) {
    try {
        (void)gql::tokenize(source, 1000);
    } catch (const gql::syntax_error& e) {
        return e.what();
    }
    return "no error";
}

}  // namespace

BOOST_AUTO_TEST_SUITE(graphql_lexer)

BOOST_AUTO_TEST_CASE(every_token_kind_with_line_and_column) {
    const auto tokens =
        gql::tokenize("! $ & ( ) ... : = @ [ ] { | }\n  name -12 3.5e2 \"s\" \"\"\"b\"\"\" # c\n,", 100);
    using k = gql::token_kind;
    const std::vector<k> kinds{k::bang,      k::dollar,      k::amp,          k::paren_l,      k::paren_r,
                               k::spread,    k::colon,       k::equals,       k::at,           k::bracket_l,
                               k::bracket_r, k::brace_l,     k::pipe,         k::brace_r,      k::name,
                               k::int_value, k::float_value, k::string_value, k::block_string, k::eof};
    BOOST_TEST_REQUIRE(tokens.size() == kinds.size());
    for (std::size_t i = 0; i < kinds.size(); ++i) {
        BOOST_TEST_CONTEXT("token " << i) {
            BOOST_TEST((tokens[i].kind == kinds[i]));
        }
    }
    BOOST_TEST(tokens[14].value == "name");
    BOOST_TEST(tokens[14].where.line == 2u);
    BOOST_TEST(tokens[14].where.column == 3u);
    BOOST_TEST(tokens[15].value == "-12");
    BOOST_TEST(tokens[16].value == "3.5e2");
    BOOST_TEST(tokens[19].where.line == 3u);
}

BOOST_AUTO_TEST_CASE(string_values) {
    struct row {
        std::string source;
        std::string value;
    };
    const std::vector<row> rows{
        {R"("simple")", "simple"},
        {R"("quote \" slash \\ \/ \b\f\n\r\t")", "quote \" slash \\ / \b\f\n\r\t"},
        {R"("\u00e9\u20AC")", "\xC3\xA9\xE2\x82\xAC"},
        {R"("\uD83D\uDE00")", "\xF0\x9F\x98\x80"},
        {R"("\u{1F600}")", "\xF0\x9F\x98\x80"},
        {"\"caf\xC3\xA9\"", "caf\xC3\xA9"},
        {"\"\"\"\n    first\n      second\n    \"\"\"", "first\n  second"},
        {"\"\"\"with \\\"\"\" quote\"\"\"", "with \"\"\" quote"},
        {"\"\"\"  \n\n  x\n\n\"\"\"", "x"},
    };
    for (const auto& r : rows) {
        BOOST_TEST_CONTEXT(r.source) {
            const auto tokens = gql::tokenize(r.source, 10);
            BOOST_TEST(tokens[0].value == r.value);
        }
    }
}

BOOST_AUTO_TEST_CASE(syntax_errors) {
    struct row {
        std::string source;
        std::string message;
    };
    const std::vector<row> rows{
        {"\"unterminated", "Syntax Error: Unterminated string."},
        {"\"line\nbreak\"", "Syntax Error: Unterminated string."},
        {"\"\"\"open", "Syntax Error: Unterminated string."},
        {R"("bad \x escape")", R"(Syntax Error: Invalid character escape sequence: "\x".)"},
        {R"("\u12G4")", R"(Syntax Error: Invalid Unicode escape sequence: "\u12G4".)"},
        {R"("\uD83D")", R"(Syntax Error: Invalid Unicode escape sequence: "\uD83D".)"},
        {R"("\uDE00")", R"(Syntax Error: Invalid Unicode escape sequence: "\uDE00".)"},
        {"\"\xC3\x28\"", "Syntax Error: Invalid UTF-8 sequence."},
        {"\"\xED\xA0\x80\"", "Syntax Error: Invalid UTF-8 sequence."},
        {"# \xFF comment", "Syntax Error: Invalid UTF-8 sequence."},
        {"\xC0\xAF", "Syntax Error: Invalid UTF-8 sequence."},
        {"\"tab\x01\"", "Syntax Error: Invalid character within String: U+0001."},
        {"\"\"\"block\x02\"\"\"", "Syntax Error: Invalid character within String: U+0002."},
        {"a \x07", "Syntax Error: Invalid character: U+0007."},
        {"01", R"(Syntax Error: Invalid number, unexpected digit after 0: "1".)"},
        {"1.", "Syntax Error: Invalid number, expected digit but got: <EOF>."},
        {".5", R"(Syntax Error: Unexpected character: ".".)"},
        {"1e", "Syntax Error: Invalid number, expected digit but got: <EOF>."},
        {"0x1", R"(Syntax Error: Invalid number, expected digit but got: "x".)"},
        {"1.5.2", R"(Syntax Error: Invalid number, expected digit but got: ".".)"},
        {"-", "Syntax Error: Invalid number, expected digit but got: <EOF>."},
        {"?", R"(Syntax Error: Unexpected character: "?".)"},
        {"..", R"(Syntax Error: Unexpected character: ".".)"},
    };
    for (const auto& r : rows) {
        BOOST_TEST_CONTEXT(r.source) {
            BOOST_TEST(syntax_message(r.source) == r.message);
        }
    }
}

BOOST_AUTO_TEST_CASE(error_location_and_token_limit) {
    try {
        (void)gql::tokenize("{\n  a \"x\\q\"", 100);
        BOOST_FAIL("no error");
    } catch (const gql::syntax_error& e) {
        BOOST_TEST(e.where().line == 2u);
        BOOST_TEST(e.where().column == 7u);
    }
    BOOST_TEST(
        syntax_message(std::string(2000, '{')) ==
        "Syntax Error: Document contains more than 1000 tokens. Parsing aborted."
    );
    BOOST_TEST(gql::tokenize("a b c", 3).size() == 4u);
}

BOOST_AUTO_TEST_SUITE_END()
