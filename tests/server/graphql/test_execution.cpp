// Execution against the storefront schema with in-memory resolvers: aliases, fragments, directives with
// variables, null propagation, lists, serial mutations, variable coercion errors, leaf serialisation.

#include <string>
#include <vector>

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <boost/test/unit_test.hpp>

#include "graphql/executor.hpp"
#include "storefront_schema.hpp"

namespace gql = storefront::graphql;
namespace json = boost::json;
using gql::testing::run;
using gql::testing::store_fixture;

BOOST_AUTO_TEST_SUITE(graphql_execution)

BOOST_AUTO_TEST_CASE(responses) {
    struct row {
        std::string query;
        std::string variables;
        std::string response;
    };
    const std::vector<row> rows{
        {"{ categories { id name } }",
         "{}",
         R"({"data":{"categories":[{"id":"1","name":"Clothes"},{"id":"2","name":"Shoes"}]}})"},
        {"{ a: product(id: 1) { title } b: product(id: \"2\") { t: title } }",
         "{}",
         R"({"data":{"a":{"title":"Shirt"},"b":{"t":"Boots"}}})"},
        {"{ product(id: 3) { ...P ... on Product { slug } } } fragment P on Product { title images }",
         "{}",
         R"({"data":{"product":{"title":"Socks","images":["x.png","y.png"],"slug":"socks"}}})"},
        {"query ($s: Boolean!, $i: Boolean!) { product(id: 1) { id title @skip(if: $s) slug @include(if: $i) "
         "} }",
         R"({"s":true,"i":false})",
         R"({"data":{"product":{"id":"1"}}})"},
        {"query ($s: Boolean = false) { product(id: 1) { id @skip(if: $s) ...F @include(if: false) } } "
         "fragment F on "
         "Product { title }",
         "{}",
         R"({"data":{"product":{"id":"1"}}})"},
        {"{ __typename product(id: 2) { __typename category { __typename name } } }",
         "{}",
         R"({"data":{"__typename":"Query","product":{"__typename":"Product","category":{"__typename":"Category","name":"Shoes"}}}})"},
        {"{ category(id: 2) { products { id price } } }",
         "{}",
         R"({"data":{"category":{"products":[{"id":"2","price":99.5},{"id":"3","price":3}]}}})"},
        {"query ($t: String, $n: Int) { products(title: $t, limit: $n) { title } }",
         R"({"t":"o","n":1})",
         R"({"data":{"products":[{"title":"Boots"}]}})"},
        {"query ($t: String) { products(title: $t) { id } }",
         "{}",
         R"({"data":{"products":[{"id":"1"},{"id":"2"},{"id":"3"}]}})"},
        {"{ isAvailable(email: \"new@mail.com\") }", "{}", R"({"data":{"isAvailable":true}})"},
        {"{ product(id: 9) { id } }",
         "{}",
         R"({"errors":[{"message":"Not found: 9","locations":[{"line":1,"column":3}],"path":["product"],"extensions":{"code":"NOT_FOUND"}}],"data":null})"},
        {"{ categories { id } myProfile { id } }",
         "{}",
         R"({"errors":[{"message":"Unauthorized","locations":[{"line":1,"column":21}],"path":["myProfile"],"extensions":{"code":"UNAUTHENTICATED"}}],"data":null})"},
        {"mutation { login(email: \"a\", password: \"b\") { access_token } }",
         "{}",
         R"({"errors":[{"message":"Internal server error","locations":[{"line":1,"column":12}],"path":["login"],"extensions":{"code":"INTERNAL_SERVER_ERROR"}}],"data":null})"},
    };
    for (const auto& r : rows) {
        BOOST_TEST_CONTEXT(r.query) {
            store_fixture fixture;
            const auto result = run(r.query, fixture, json::parse(r.variables).as_object());
            BOOST_TEST(gql::to_response_json(result) == r.response);
        }
    }
}

BOOST_AUTO_TEST_CASE(null_propagates_to_the_nearest_nullable_parent) {
    store_fixture fixture;
    // A product whose category is missing: Product.category is non-null, products' items are non-null, and
    // the list is non-null: the error climbs to data.
    fixture.data.as_object()["products"].as_array()[1].as_object()["categoryId"] = 42;
    const auto all = run("{ products { id category { name } } }", fixture);
    BOOST_TEST_REQUIRE(all.errors.size() == 1u);
    BOOST_TEST(all.errors[0].message == "Cannot return null for non-nullable field Product.category.");
    BOOST_TEST(json::serialize(all.errors[0].path) == R"(["products",1,"category"])");
    BOOST_TEST(json::serialize(*all.data) == "null");
    // __type is nullable: a failure inside it stops there.
    const auto partial = run("{ categories { id } __type(name: \"Nope\") { name } }", fixture);
    BOOST_TEST(json::serialize(*partial.data) == R"({"categories":[{"id":"1"},{"id":"2"}],"__type":null})");
}

BOOST_AUTO_TEST_CASE(serial_mutations_in_document_order) {
    store_fixture fixture;
    const auto result =
        run("mutation { first: addProduct(data: {title: \"A\", price: 1, description: \"d\", categoryId: 1, "
            "images: "
            "\"one.png\"}) { id images } gone: deleteProduct(id: 1) second: addProduct(data: {title: \"B\", "
            "price: 2.5, "
            "description: \"d\", categoryId: 2, images: []}) { id title category { name } } }",
            fixture);
    BOOST_TEST(result.errors.empty());
    BOOST_TEST(
        json::serialize(*result.data) ==
        R"({"first":{"id":"4","images":["one.png"]},"gone":true,"second":{"id":"4","title":"B","category":{"name":"Shoes"}}})"
    );
    const std::vector<std::string> order{"addProduct A", "deleteProduct 1", "addProduct B"};
    BOOST_TEST(fixture.calls == order, boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(variable_coercion) {
    struct row {
        std::string query;
        std::string variables;
        std::string message;  // empty: succeeds
    };
    const std::vector<row> rows{
        {"query ($id: ID!) { product(id: $id) { id } }",
         "{}",
         R"(Variable "$id" of required type "ID!" was not provided.)"},
        {"query ($id: ID!) { product(id: $id) { id } }",
         R"({"id":null})",
         R"(Variable "$id" of non-null type "ID!" must not be null.)"},
        {"query ($id: ID!) { product(id: $id) { id } }", R"({"id":1})", ""},
        {"query ($id: ID!) { product(id: $id) { id } }",
         R"({"id":1.5})",
         R"(Variable "$id" got invalid value 1.5; ID cannot represent value: 1.5)"},
        {"query ($n: Int) { products(limit: $n) { id } }",
         R"({"n":"3"})",
         R"(Variable "$n" got invalid value "3"; Int cannot represent non-integer value: "3")"},
        {"query ($n: Int) { products(limit: $n) { id } }",
         R"({"n":3000000000})",
         R"(Variable "$n" got invalid value 3000000000; Int cannot represent non 32-bit signed integer value: 3000000000)"},
        {"query ($n: Int) { products(limit: $n) { id } }", R"({"n":null})", ""},
        {"mutation ($d: CreateProductDto!) { addProduct(data: $d) { id } }",
         R"({"d":{"title":"T","price":"cheap","description":"x","categoryId":1,"images":[]}})",
         R"(Variable "$d" got invalid value "cheap" at "d.price"; Float cannot represent non numeric value: "cheap")"},
        {"mutation ($d: CreateProductDto!) { addProduct(data: $d) { id } }",
         R"({"d":{"title":"T","price":1,"description":"x","categoryId":1}})",
         R"(Variable "$d" got invalid value {"title":"T","price":1,"description":"x","categoryId":1}; Field "images" of required type "[String!]!" was not provided.)"},
        {"mutation ($d: CreateProductDto!) { addProduct(data: $d) { id } }",
         R"({"d":{"title":"T","price":1,"description":"x","categoryId":1,"images":"single.png"}})",
         ""},
        {"mutation ($d: CreateProductDto!) { addProduct(data: $d) { id } }",
         R"({"d":{"title":"T","price":1,"description":"x","categoryId":1,"images":[],"extra":1}})",
         R"(Variable "$d" got invalid value {"title":"T","price":1,"description":"x","categoryId":1,"images":[],"extra":1}; Field "extra" is not defined by type "CreateProductDto".)"},
        {"mutation ($d: CreateUserDto!) { addUser(data: $d) { id } }",
         R"({"d":{"email":"e","name":"n","password":"p","avatar":"a","role":"root"}})",
         R"(Variable "$d" got invalid value "root" at "d.role"; Value "root" does not exist in "Role" enum.)"},
        {"mutation ($d: CreateProductDto!) { addProduct(data: $d) { id } }",
         R"({"d":[1]})",
         R"(Variable "$d" got invalid value [1]; Expected type "CreateProductDto" to be an object.)"},
    };
    for (const auto& r : rows) {
        BOOST_TEST_CONTEXT(r.query << " " << r.variables) {
            store_fixture fixture;
            const auto result = run(r.query, fixture, json::parse(r.variables).as_object());
            if (r.message.empty()) {
                BOOST_TEST(!result.variables_failed);
                BOOST_TEST(result.data.has_value());
            } else {
                BOOST_TEST(result.variables_failed);
                BOOST_TEST(!result.data.has_value());
                BOOST_TEST_REQUIRE(result.errors.size() == 1u);
                BOOST_TEST(result.errors[0].message == r.message);
                BOOST_TEST(result.errors[0].code == "BAD_USER_INPUT");
                BOOST_TEST(gql::to_response_json(result).find("\"data\"") == std::string::npos);
            }
        }
    }
}

BOOST_AUTO_TEST_CASE(leaf_serialisation) {
    auto s =
        gql::schema::from_sdl("enum E { A B } type Query { i: Int f: Float id: ID s: String b: Boolean e: E }"
        );
    struct row {
        std::string field;
        std::string parent;
        std::string response;
    };
    const std::vector<row> rows{
        {"i", R"({"i":2147483647})", R"({"data":{"i":2147483647}})"},
        {"i",
         R"({"i":2147483648})",
         R"({"errors":[{"message":"Int cannot represent non 32-bit signed integer value: 2147483648","locations":[{"line":1,"column":3}],"path":["i"],"extensions":{"code":"INTERNAL_SERVER_ERROR"}}],"data":{"i":null}})"},
        {"i",
         R"({"i":-2147483649})",
         R"({"errors":[{"message":"Int cannot represent non 32-bit signed integer value: -2147483649","locations":[{"line":1,"column":3}],"path":["i"],"extensions":{"code":"INTERNAL_SERVER_ERROR"}}],"data":{"i":null}})"},
        {"id", R"({"id":12})", R"({"data":{"id":"12"}})"},
        {"id", R"({"id":"abc"})", R"({"data":{"id":"abc"}})"},
        {"f", R"({"f":7})", R"({"data":{"f":7}})"},
        {"s", R"({"s":7})", R"({"data":{"s":"7"}})"},
        {"b", R"({"b":true})", R"({"data":{"b":true}})"},
        {"e", R"({"e":"B"})", R"({"data":{"e":"B"}})"},
        {"e",
         R"({"e":"C"})",
         R"({"errors":[{"message":"Enum \"E\" cannot represent value: \"C\"","locations":[{"line":1,"column":3}],"path":["e"],"extensions":{"code":"INTERNAL_SERVER_ERROR"}}],"data":{"e":null}})"},
        {"s", R"({})", R"({"data":{"s":null}})"},
    };
    for (const auto& r : rows) {
        BOOST_TEST_CONTEXT(r.field << " " << r.parent) {
            const json::value root = json::parse(r.parent);
            s.resolve("Query", r.field, [root, name = r.field](const gql::resolve_info&) {
                const auto* v = root.as_object().if_contains(name);
                return gql::resolved::ok(v == nullptr ? json::value(nullptr) : *v);
            });
            const auto p = gql::prepare(s, "{ " + r.field + " }", gql::limits{});
            BOOST_TEST_REQUIRE(p.document != nullptr);
            const auto result = gql::execute(s, *p.document, "", {}, nullptr, gql::limits{});
            BOOST_TEST(gql::to_response_json(result) == r.response);
        }
    }
}

BOOST_AUTO_TEST_CASE(operation_choice) {
    const auto p = gql::prepare(
        gql::testing::storefront_schema(),
        "query A { categories { id } } mutation B { deleteProduct(id: 1) }",
        gql::limits{}
    );
    BOOST_TEST_REQUIRE(p.document != nullptr);
    BOOST_TEST((gql::choose_operation(*p.document, "B").kind == gql::operation_kind::mutation));
    BOOST_TEST((gql::choose_operation(*p.document, "A").kind == gql::operation_kind::query));
    const auto none = gql::choose_operation(*p.document, "");
    BOOST_TEST(!none.kind.has_value());
    BOOST_TEST(none.failure->message == "Must provide operation name if query contains multiple operations.");
    BOOST_TEST(gql::choose_operation(*p.document, "C").failure->message == "Unknown operation named \"C\".");
    store_fixture fixture;
    const auto a =
        gql::execute(gql::testing::storefront_schema(), *p.document, "A", {}, &fixture, gql::limits{});
    BOOST_TEST(gql::to_response_json(a) == R"({"data":{"categories":[{"id":"1"},{"id":"2"}]}})");
}

BOOST_AUTO_TEST_SUITE_END()
