#pragma once

#include <string>
#include <vector>

#include <boost/json/value.hpp>

#include "graphql/document.hpp"
#include "graphql/executor.hpp"
#include "graphql/schema.hpp"

namespace storefront::graphql::testing {

// The storefront schema text of /work/shared/reference/graphql.md, as the reference writes it.
extern const char* const storefront_sdl;

// The in-memory data the test resolvers read and the order in which mutation resolvers ran.
struct store_fixture {
    boost::json::value data;
    std::vector<std::string> calls;
    store_fixture();
};

// The storefront schema with resolvers over a store_fixture passed as execute()'s context.
[[nodiscard]] const schema& storefront_schema();

// prepare + execute with default limits; throws std::runtime_error with the errors when preparation fails.
[[nodiscard]] execution run(
    const std::string& query,
    store_fixture& fixture,
    const boost::json::object& variables = {},
    const std::string& operation_name = ""
);
// Messages of prepare()'s errors (empty: valid).
[[nodiscard]] std::vector<std::string> preparation_messages(const std::string& query);

}  // namespace storefront::graphql::testing
