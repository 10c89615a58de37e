#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>
#include <vector>

#include <boost/json/array.hpp>
#include <boost/json/object.hpp>

namespace storefront::graphql {

// A 1-based line and column in a GraphQL document (0 = unknown).
struct location {
    std::size_t line = 0;
    std::size_t column = 0;
};

// One GraphQL error as it goes into the response's "errors" array.
struct error {
    std::string message;
    std::vector<location> locations;
    boost::json::array path;         // field names and list indices; empty = no "path" member
    std::string code;                // extensions.code, e.g. "GRAPHQL_PARSE_FAILED", "BAD_USER_INPUT"
    boost::json::object extensions;  // extra members of "extensions" besides code (may be empty)
};

// {"message","locations":[{"line","column"}],"path":[...],"extensions":{"code",...}}; empty locations and
// path are left out, and so is "extensions" when there is neither a code nor an extra member.
[[nodiscard]] boost::json::object to_json(const error& e);

// Thrown by the lexer and the parser: the message already starts with "Syntax Error: ".
class syntax_error final : public std::runtime_error {
  public:
    syntax_error(const std::string& message, location where) : std::runtime_error(message), where_(where) {}
    // Where the error was found.
    [[nodiscard]] location where() const { return where_; }

  private:
    location where_;
};

}  // namespace storefront::graphql
