// Validation: for each rule of spec section 5, a document that passes and one that fails with graphql-js's
// message, against the storefront schema.

#include <algorithm>
#include <string>
#include <vector>

#include <boost/test/unit_test.hpp>

#include "graphql/validator.hpp"
#include "storefront_schema.hpp"

namespace gql = storefront::graphql;
using gql::testing::preparation_messages;

BOOST_AUTO_TEST_SUITE(graphql_validation)

BOOST_AUTO_TEST_CASE(one_passing_and_one_failing_document_per_rule) {
    struct row {
        const char* rule;
        std::string valid;
        std::string invalid;
        std::string message;
    };
    const std::vector<row> rows{
        {"executable definitions",
         "{ categories { id } }",
         "{ categories { id } } type X { a: Int }",
         R"(The "X" definition is not executable.)"},
        {"unique operation names",
         "query A { categories { id } } query B { categories { id } }",
         "query A { categories { id } } query A { users { id } }",
         R"(There can be only one operation named "A".)"},
        {"lone anonymous operation",
         "{ categories { id } }",
         "{ categories { id } } query B { users { id } }",
         "This anonymous operation must be the only defined operation."},
        {"subscriptions",
         "query { categories { id } }",
         "subscription { categories { id } }",
         "Schema is not configured to execute subscription operation."},
        {"fields on correct type",
         "{ categories { name } }",
         "{ foo }",
         R"(Cannot query field "foo" on type "Query".)"},
        {"fragments on composite types",
         "{ categories { ... on Category { id } } }",
         "{ categories { ... on String { id } } }",
         R"(Fragment cannot condition on non composite type "String".)"},
        {"named fragments on composite types",
         "{ categories { ...F } } fragment F on Category { id }",
         "{ categories { ...F } } fragment F on Role { id }",
         R"(Fragment "F" cannot condition on non composite type "Role".)"},
        {"known type names",
         "query ($n: Float) { users(limit: $n) { id } }",
         "query ($n: Number) { users(limit: $n) { id } }",
         R"(Unknown type "Number".)"},
        {"unique fragment names",
         "{ categories { ...F } } fragment F on Category { id }",
         "{ categories { ...F } } fragment F on Category { id } fragment F on Category { name }",
         R"(There can be only one fragment named "F".)"},
        {"known fragment names",
         "{ categories { ...F } } fragment F on Category { id }",
         "{ categories { ...G } }",
         R"(Unknown fragment "G".)"},
        {"no unused fragments",
         "{ categories { ...F } } fragment F on Category { id }",
         "{ categories { id } } fragment F on Category { id }",
         R"(Fragment "F" is never used.)"},
        {"no fragment cycles",
         "{ categories { ...F } } fragment F on Category { products { ...G } } fragment G on Product { id }",
         "{ categories { ...F } } fragment F on Category { products { ...G } } fragment G on Product { "
         "category { ...F } }",
         R"(Cannot spread fragment "F" within itself via "G".)"},
        {"possible fragment spreads",
         "{ product(id: 1) { ... on Product { id } } }",
         "{ product(id: 1) { ... on Category { id } } }",
         R"(Fragment cannot be spread here as objects of type "Product" can never be of type "Category".)"},
        {"scalar leafs without selection",
         "{ product(id: 1) { title } }",
         "{ product(id: 1) { title { x } } }",
         R"(Field "title" must not have a selection since type "String!" has no subfields.)"},
        {"objects need a selection",
         "{ product(id: 1) { id } }",
         "{ product(id: 1) }",
         R"(Field "product" of type "Product!" must have a selection of subfields. Did you mean "product { ... }"?)"},
        {"known argument names",
         "{ products(limit: 1) { id } }",
         "{ products(size: 1) { id } }",
         R"(Unknown argument "size" on field "Query.products".)"},
        {"known directive argument names",
         "{ products @skip(if: false) { id } }",
         "{ products @skip(if: false, when: 1) { id } }",
         R"(Unknown argument "when" on directive "@skip".)"},
        {"unique argument names",
         "{ products(limit: 1, offset: 2) { id } }",
         "{ products(limit: 1, limit: 2) { id } }",
         R"(There can be only one argument named "limit".)"},
        {"provided required arguments",
         "{ product(id: 1) { id } }",
         "{ product { id } }",
         R"(Field "product" argument "id" of type "ID!" is required, but it was not provided.)"},
        {"provided required directive arguments",
         "{ products @include(if: true) { id } }",
         "{ products @include { id } }",
         R"(Directive "@include" argument "if" of type "Boolean!" is required, but it was not provided.)"},
        {"values of correct type: Int",
         "{ products(limit: 10) { id } }",
         "{ products(limit: \"ten\") { id } }",
         R"(Expected value of type "Int", found "ten".)"},
        {"values of correct type: Int range",
         "{ products(limit: 2147483647) { id } }",
         "{ products(limit: 2147483648) { id } }",
         R"(Expected value of type "Int", found 2147483648.)"},
        {"values of correct type: Float takes Int",
         "{ users(limit: 1) { id } }",
         "{ users(limit: true) { id } }",
         R"(Expected value of type "Float", found true.)"},
        {"values of correct type: null for non-null",
         "{ product(id: \"1\") { id } }",
         "{ product(id: null) { id } }",
         R"(Expected value of type "ID!", found null.)"},
        {"values of correct type: enum",
         R"(mutation { addUser(data: {email: "a", name: "b", password: "c", avatar: "d", role: admin}) { id } })",
         R"(mutation { addUser(data: {email: "a", name: "b", password: "c", avatar: "d", role: "admin"}) { id } })",
         R"(Expected value of type "Role", found "admin".)"},
        {"values of correct type: unknown input field",
         R"(mutation { addCategory(data: {name: "n", image: "i"}) { id } })",
         R"(mutation { addCategory(data: {name: "n", image: "i", color: "red"}) { id } })",
         R"(Field "color" is not defined by type "CreateCategoryDto".)"},
        {"values of correct type: required input field",
         R"(mutation { addCategory(data: {name: "n", image: "i"}) { id } })",
         R"(mutation { addCategory(data: {name: "n"}) { id } })",
         R"(Field "CreateCategoryDto.image" of required type "String!" was not provided.)"},
        {"values of correct type: list item",
         R"(mutation { updateProduct(id: 1, changes: {images: ["a", "b"]}) { id } })",
         R"(mutation { updateProduct(id: 1, changes: {images: ["a", 2]}) { id } })",
         R"(Expected value of type "String!", found 2.)"},
        {"known directives",
         "{ products @include(if: true) { id } }",
         "{ products @cached { id } }",
         R"(Unknown directive "@cached".)"},
        {"directives in allowed locations",
         "{ products @skip(if: true) { id } }",
         "query @skip(if: true) { products { id } }",
         R"(Directive "@skip" may not be used on QUERY.)"},
        {"deprecated is not executable",
         "{ categories { id } }",
         "{ categories @deprecated { id } }",
         R"(Directive "@deprecated" may not be used on FIELD.)"},
        {"unique directives per location",
         "{ products @skip(if: false) @include(if: true) { id } }",
         "{ products @skip(if: false) @skip(if: true) { id } }",
         R"(The directive "@skip" can only be used once at this location.)"},
        {"unique variable names",
         "query ($a: Int, $b: Int) { products(limit: $a, offset: $b) { id } }",
         "query ($a: Int, $a: Int) { products(limit: $a) { id } }",
         R"(There can be only one variable named "$a".)"},
        {"variables are input types",
         "mutation M($d: CreateCategoryDto!) { addCategory(data: $d) { id } }",
         "query ($p: Product) { products { id } }",
         R"(Variable "$p" cannot be non-input type "Product".)"},
        {"no undefined variables",
         "query Q($n: Int) { products(limit: $n) { id } }",
         "query Q { products(limit: $n) { id } }",
         R"(Variable "$n" is not defined by operation "Q".)"},
        {"no undefined variables in fragments",
         "query Q($n: Int) { ...F } fragment F on Query { products(limit: $n) { id } }",
         "query Q { ...F } fragment F on Query { products(limit: $n) { id } }",
         R"(Variable "$n" is not defined by operation "Q".)"},
        {"no unused variables",
         "query Q($n: Int) { products(limit: $n) { id } }",
         "query Q($n: Int) { products { id } }",
         R"(Variable "$n" is never used in operation "Q".)"},
        {"variables in allowed position",
         "query ($id: ID!) { product(id: $id) { id } }",
         "query ($id: ID) { product(id: $id) { id } }",
         R"(Variable "$id" of type "ID" used in position expecting type "ID!".)"},
        {"variables in allowed position: types",
         "query ($n: Int) { products(limit: $n) { id } }",
         "query ($n: Float) { products(limit: $n) { id } }",
         R"(Variable "$n" of type "Float" used in position expecting type "Int".)"},
        {"overlapping fields: names",
         "{ a: products { id } a: products { title } }",
         "{ products { a: id a: title } }",
         R"(Fields "a" conflict because "id" and "title" are different fields. Use different aliases on the fields to fetch both if this was intentional.)"},
        {"overlapping fields: arguments",
         "{ products(limit: 1) { id } products(limit: 1) { title } }",
         "{ products(limit: 1) { id } products(limit: 2) { id } }",
         R"(Fields "products" conflict because they have differing arguments. Use different aliases on the fields to fetch both if this was intentional.)"},
        {"overlapping fields via fragments",
         "{ products { id ...F } } fragment F on Product { id }",
         "{ products { id ...F } } fragment F on Product { id: title }",
         R"(Fields "id" conflict because "id" and "title" are different fields. Use different aliases on the fields to fetch both if this was intentional.)"},
        {"overlapping fields: sub-selections",
         "{ products { id } products { title } }",
         "{ products { id: title } products { id } }",
         R"(Fields "products" conflict because subfields "id" conflict because "title" and "id" are different fields. Use different aliases on the fields to fetch both if this was intentional.)"},
        {"overlapping fields: sub-selections via fragments",
         "{ ...A ...B } fragment A on Query { categories { n: name } } fragment B on Query { categories { n: "
         "name } }",
         "{ ...A ...B } fragment A on Query { categories { n: name } } fragment B on Query { categories { n: "
         "slug } }",
         R"(Fields "categories" conflict because subfields "n" conflict because "name" and "slug" are different fields. Use different aliases on the fields to fetch both if this was intentional.)"},
        {"overlapping fields: types",
         "{ a: product(id: 1) { id } a: product(id: 1) { id } }",
         "{ product(id: 1) { x: id ... on Product { x: price } } }",
         R"(Fields "x" conflict because "id" and "price" are different fields. Use different aliases on the fields to fetch both if this was intentional.)"},
        {"unique input field names",
         R"(mutation { addCategory(data: {name: "n", image: "i"}) { id } })",
         R"(mutation { addCategory(data: {name: "n", name: "m", image: "i"}) { id } })",
         R"(There can be only one input field named "name".)"},
        {"mutation root exists",
         "mutation { deleteProduct(id: 1) }",
         "mutation { nothing }",
         R"(Cannot query field "nothing" on type "Mutation".)"},
    };
    for (const auto& r : rows) {
        BOOST_TEST_CONTEXT(r.rule) {
            BOOST_TEST(
                preparation_messages(r.valid).empty(),
                r.valid << ": "
                        << (preparation_messages(r.valid).empty() ? "" : preparation_messages(r.valid)[0])
            );
            const auto messages = preparation_messages(r.invalid);
            const bool found = std::find(messages.begin(), messages.end(), r.message) != messages.end();
            BOOST_TEST(found, r.invalid << " gave " << (messages.empty() ? "no error" : messages[0]));
        }
    }
}

BOOST_AUTO_TEST_CASE(errors_carry_code_and_locations) {
    const auto p =
        gql::prepare(gql::testing::storefront_schema(), "{\n  categories { id }\n  foo\n}", gql::limits{});
    BOOST_TEST(!p.parse_failed);
    BOOST_TEST_REQUIRE(p.errors.size() == 1u);
    BOOST_TEST(p.errors[0].code == "GRAPHQL_VALIDATION_FAILED");
    BOOST_TEST(p.errors[0].locations.at(0).line == 3u);
    BOOST_TEST(p.errors[0].locations.at(0).column == 3u);
    const auto bad = gql::prepare(gql::testing::storefront_schema(), "{ categories { id }", gql::limits{});
    BOOST_TEST(bad.parse_failed);
    BOOST_TEST(bad.errors.at(0).code == "GRAPHQL_PARSE_FAILED");
    BOOST_TEST(bad.errors.at(0).message == "Syntax Error: Expected Name, found <EOF>.");
}

BOOST_AUTO_TEST_SUITE_END()
