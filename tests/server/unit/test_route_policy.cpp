// The policy the route tables carry as data: which requests change data (a sandbox's own stores,
// --sandboxes required's read-only shared view), which rows they add (the sandbox row quota) and which
// GraphQL mutation performs each REST write. Nothing but the rows says so.

#include <set>
#include <string>

#include <boost/test/unit_test.hpp>

#include "server/api/graphql/routes.hpp"
#include "server/api/petstore/routes.hpp"
#include "server/api/store/routes.hpp"

using namespace storefront::server;

namespace {

const route& row(const route_table& table, http::verb verb, std::string_view pattern) {
    for (const route& r : table.routes) {
        if (r.verb == verb && r.pattern == pattern) {
            return r;
        }
    }
    BOOST_FAIL("no row " << pattern);
    throw;
}

bool writes(const route& r) {
    return r.change == data_change::writes;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(route_policy)

BOOST_AUTO_TEST_CASE(writes_are_the_methods_that_change_data) {
    const route_table& store = store_routes();
    const route_table& pets = petstore_routes();
    BOOST_TEST(!writes(row(store, http::verb::get, "/api/v1/products")));
    BOOST_TEST(writes(row(store, http::verb::post, "/api/v1/products")));
    BOOST_TEST(writes(row(store, http::verb::put, "/api/v1/users/{id}")));
    BOOST_TEST(writes(row(pets, http::verb::delete_, "/api/v3/pet/{petId}")));
    // The POSTs that only check credentials or names, and the sandbox registry.
    for (const auto* checks_only :
         {"/api/v1/auth/login",
          "/api/v1/auth/refresh-token",
          "/api/v1/auth/logout",
          "/api/v1/users/is-available",
          "/api/v1/sandboxes"}) {
        BOOST_TEST(!writes(row(store, http::verb::post, checks_only)), checks_only);
    }
    BOOST_TEST(!writes(row(pets, http::verb::post, "/api/v3/oauth/token")));
    // A GraphQL POST is a query or a mutation: its handler decides through the write gate.
    BOOST_TEST((row(graphql_routes(), http::verb::post, "/graphql").change == data_change::by_body));
}

BOOST_AUTO_TEST_CASE(no_read_changes_data_and_every_row_adding_rows_writes) {
    const route_table* const tables[] = {&store_routes(), &petstore_routes(), &graphql_routes()};
    for (const route_table* table : tables) {
        for (const route& r : table->routes) {
            if (r.verb == http::verb::get) {
                BOOST_TEST((r.change == data_change::reads), r.pattern);
            }
            if (r.adds != row_kind::none) {
                BOOST_TEST(writes(r), r.pattern);
            }
        }
    }
}

BOOST_AUTO_TEST_CASE(each_surface_counts_its_own_kind_of_user) {
    // Both surfaces have an operation named createUser; their rows count different rows.
    BOOST_TEST((row(store_routes(), http::verb::post, "/api/v1/users").adds == row_kind::user));
    BOOST_TEST((row(petstore_routes(), http::verb::post, "/api/v3/user").adds == row_kind::pet_user));
    BOOST_TEST((row(petstore_routes(), http::verb::post, "/api/v3/store/order").adds == row_kind::order));
    BOOST_TEST((row(store_routes(), http::verb::post, "/api/v1/products").adds == row_kind::product));
    BOOST_TEST((row(store_routes(), http::verb::put, "/api/v1/products/{id}").adds == row_kind::none));
}

BOOST_AUTO_TEST_CASE(every_graphql_mutation_names_one_writing_row) {
    std::set<std::string> seen;
    for (const route& r : store_routes().routes) {
        if (r.graphql_mutation.empty()) {
            continue;
        }
        BOOST_TEST(writes(r), r.pattern);
        BOOST_TEST(seen.insert(std::string(r.graphql_mutation)).second, r.graphql_mutation);
    }
    for (const auto* mutation :
         {"addProduct",
          "updateProduct",
          "deleteProduct",
          "addCategory",
          "updateCategory",
          "deleteCategory",
          "addUser",
          "updateUser",
          "deleteUser"}) {
        BOOST_TEST(seen.contains(mutation), mutation);
    }
    BOOST_TEST((row(store_routes(), http::verb::post, "/api/v1/products").graphql_mutation == "addProduct"));
}

// The replay cache keeps an answer across writes to rows its route's row says it does not read: only GETs
// are reused, and a row that reads one item by id has the id as its pattern's last segment.
BOOST_AUTO_TEST_CASE(reused_answers_state_the_rows_they_read) {
    const route_table* const tables[] = {&store_routes(), &petstore_routes(), &graphql_routes()};
    int reused = 0;
    for (const route_table* table : tables) {
        for (const route& r : table->routes) {
            if (!r.reuse.until_data_changes) {
                continue;
            }
            ++reused;
            BOOST_TEST((r.verb == http::verb::get), r.pattern);
            BOOST_TEST(r.reuse.reads.tables != 0, r.pattern);
            if (r.reuse.reads.one_row_of) {
                BOOST_TEST(r.pattern.ends_with("/{id}"), r.pattern);
                BOOST_TEST((r.reuse.reads.tables & table_bit(*r.reuse.reads.one_row_of)) != 0, r.pattern);
            }
        }
    }
    BOOST_TEST(reused == 11);
    // Users read users only; a product or a page of them reads its category too.
    const auto& users = row(store_routes(), http::verb::get, "/api/v1/users").reuse.reads;
    BOOST_TEST(users.tables == table_bit(storefront::core::row_table::users));
    const auto& product = row(store_routes(), http::verb::get, "/api/v1/products/{id}").reuse.reads;
    BOOST_TEST((product.tables & table_bit(storefront::core::row_table::categories)) != 0);
    BOOST_TEST((product.one_row_of == storefront::core::row_table::products));
}

BOOST_AUTO_TEST_SUITE_END()
