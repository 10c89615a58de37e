// Introspection: GraphiQL's full IntrospectionQuery within max_depth 20, the shapes codegen reads
// (Query.products' eight arguments, non-null and list wrappers), __type(name:), and the printed SDL.

#include <string>

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <boost/test/unit_test.hpp>

#include "storefront_schema.hpp"

namespace gql = storefront::graphql;
namespace json = boost::json;

namespace {

// GraphiQL's IntrospectionQuery (graphql-js getIntrospectionQuery with descriptions, specifiedByUrl,
// directiveIsRepeatable, schemaDescription, inputValueDeprecation, oneOf) with nine nested ofType.
const char* const introspection_query = R"(
    query IntrospectionQuery {
      __schema {
        description
        queryType { name }
        mutationType { name }
        subscriptionType { name }
        types {
          ...FullType
        }
        directives {
          name
          description
          isRepeatable
          locations
          args(includeDeprecated: true) {
            ...InputValue
          }
        }
      }
    }

    fragment FullType on __Type {
      kind
      name
      description
      specifiedByURL
      isOneOf
      fields(includeDeprecated: true) {
        name
        description
        args(includeDeprecated: true) {
          ...InputValue
        }
        type {
          ...TypeRef
        }
        isDeprecated
        deprecationReason
      }
      inputFields(includeDeprecated: true) {
        ...InputValue
      }
      interfaces {
        ...TypeRef
      }
      enumValues(includeDeprecated: true) {
        name
        description
        isDeprecated
        deprecationReason
      }
      possibleTypes {
        ...TypeRef
      }
    }

    fragment InputValue on __InputValue {
      name
      description
      type { ...TypeRef }
      defaultValue
      isDeprecated
      deprecationReason
    }

    fragment TypeRef on __Type {
      kind
      name
      ofType {
        kind
        name
        ofType {
          kind
          name
          ofType {
            kind
            name
            ofType {
              kind
              name
              ofType {
                kind
                name
                ofType {
                  kind
                  name
                  ofType {
                    kind
                    name
                    ofType {
                      kind
                      name
                      ofType {
                        kind
                        name
                      }
                    }
                  }
                }
              }
            }
          }
        }
      }
    }
)";

const json::object* find_named(const json::array& items, const std::string& name) {
    for (const auto& item : items) {
        if (item.as_object().at("name") == json::value(name)) {
            return &item.as_object();
        }
    }
    return nullptr;
}

std::string type_string(const json::value& t) {
    const auto& o = t.as_object();
    const auto kind = std::string(o.at("kind").as_string());
    if (kind == "NON_NULL") {
        return type_string(o.at("ofType")) + "!";
    }
    if (kind == "LIST") {
        return "[" + type_string(o.at("ofType")) + "]";
    }
    return std::string(o.at("name").as_string());
}

}  // namespace

BOOST_AUTO_TEST_SUITE(graphql_introspection)

BOOST_AUTO_TEST_CASE(graphiql_introspection_query) {
    gql::testing::store_fixture fixture;
    const auto result = gql::testing::run(introspection_query, fixture);  // throws when depth 20 refuses it
    BOOST_TEST_REQUIRE(result.errors.empty());
    const auto& schema = result.data->at("__schema").as_object();
    BOOST_TEST(schema.at("queryType").at("name") == "Query");
    BOOST_TEST(schema.at("mutationType").at("name") == "Mutation");
    BOOST_TEST(schema.at("subscriptionType").is_null());
    const auto& types = schema.at("types").as_array();
    for (const char* name :
         {"Product",
          "Category",
          "User",
          "Login",
          "Query",
          "Mutation",
          "CreateProductDto",
          "Role",
          "DateTime",
          "String",
          "Int",
          "Float",
          "Boolean",
          "ID",
          "__Schema",
          "__Type",
          "__TypeKind",
          "__Field",
          "__InputValue",
          "__EnumValue",
          "__Directive",
          "__DirectiveLocation"}) {
        BOOST_TEST_CONTEXT(name) {
            BOOST_TEST(find_named(types, name) != nullptr);
        }
    }
    const auto* query = find_named(types, "Query");
    BOOST_TEST(query->at("kind") == "OBJECT");
    const auto* products = find_named(query->at("fields").as_array(), "products");
    BOOST_TEST_REQUIRE(products != nullptr);
    BOOST_TEST(type_string(products->at("type")) == "[Product!]!");
    const auto& args = products->at("args").as_array();
    BOOST_TEST_REQUIRE(args.size() == 8u);
    const char* expected[][2] = {
        {"limit", "Int"},
        {"offset", "Int"},
        {"price", "Int"},
        {"price_min", "Int"},
        {"price_max", "Int"},
        {"title", "String"},
        {"categoryId", "Float"},
        {"categorySlug", "String"}};
    for (std::size_t i = 0; i < 8; ++i) {
        BOOST_TEST_CONTEXT(expected[i][0]) {
            BOOST_TEST(args[i].at("name") == expected[i][0]);
            BOOST_TEST(type_string(args[i].at("type")) == expected[i][1]);
            BOOST_TEST(args[i].at("defaultValue").is_null());
        }
    }
    const auto* product = find_named(query->at("fields").as_array(), "product");
    BOOST_TEST(type_string(product->at("args").at(0).at("type")) == "ID!");
    const auto* role = find_named(types, "Role");
    BOOST_TEST(role->at("kind") == "ENUM");
    BOOST_TEST(role->at("enumValues").as_array().size() == 2u);
    BOOST_TEST(role->at("fields").is_null());
    const auto* dto = find_named(types, "UpdateProductDto");
    BOOST_TEST(
        type_string(find_named(dto->at("inputFields").as_array(), "images")->at("type")) == "[String!]"
    );
    BOOST_TEST(dto->at("isOneOf") == false);
    const auto& directives = schema.at("directives").as_array();
    BOOST_TEST(directives.size() == 4u);
    const auto* deprecated = find_named(directives, "deprecated");
    BOOST_TEST(deprecated->at("args").at(0).at("defaultValue") == "\"No longer supported\"");
    BOOST_TEST(find_named(directives, "skip")->at("locations").as_array().size() == 3u);
    const auto* type_type = find_named(types, "__Type");
    const auto* fields_field = find_named(type_type->at("fields").as_array(), "fields");
    BOOST_TEST(fields_field->at("args").at(0).at("defaultValue") == "false");
    // Its depth, fragments expanded: __schema types inputFields type and ten levels of TypeRef.
    const auto measured =
        gql::prepare(gql::testing::storefront_schema(), introspection_query, gql::limits{.max_depth = 1});
    BOOST_TEST(measured.errors.at(0).message == "Query depth 15 exceeds the maximum depth 1.");
}

BOOST_AUTO_TEST_CASE(type_by_name) {
    gql::testing::store_fixture fixture;
    const auto result = gql::testing::run(
        "{ __type(name: \"Product\") { name kind fields { name type { kind ofType { name kind } } } } }",
        fixture
    );
    BOOST_TEST(result.errors.empty());
    const auto& t = result.data->at("__type").as_object();
    BOOST_TEST(t.at("kind") == "OBJECT");
    const auto& fields = t.at("fields").as_array();
    BOOST_TEST(fields.size() == 9u);
    BOOST_TEST(
        json::serialize(fields[0]) ==
        R"({"name":"id","type":{"kind":"NON_NULL","ofType":{"name":"ID","kind":"SCALAR"}}})"
    );
    const auto missing = gql::testing::run("{ __type(name: \"Nope\") { name } }", fixture);
    BOOST_TEST(json::serialize(*missing.data) == R"({"__type":null})");
    const auto typenames = gql::testing::run("mutation { __typename }", fixture);
    BOOST_TEST(json::serialize(*typenames.data) == R"({"__typename":"Mutation"})");
}

BOOST_AUTO_TEST_CASE(printed_sdl) {
    const std::string& sdl = gql::testing::storefront_schema().sdl();
    BOOST_TEST(sdl.rfind("scalar DateTime\n\ntype Product {\n  id: ID!\n  title: String!\n", 0) == 0u);
    BOOST_TEST(
        sdl.find(
            "  products(limit: Int, offset: Int, price: Int, price_min: Int, price_max: Int, title: String, "
            "categoryId: Float, categorySlug: String): [Product!]!\n"
        ) != std::string::npos
    );
    BOOST_TEST(sdl.find("input UpdateUserDto {\n  email: String\n") != std::string::npos);
    BOOST_TEST(sdl.find("enum Role {\n  admin\n  customer\n}") != std::string::npos);
    BOOST_TEST(sdl.find("__") == std::string::npos);
    BOOST_TEST(sdl.find("scalar String") == std::string::npos);
    // The printed text is itself a schema that prints the same.
    BOOST_TEST(gql::schema::from_sdl(sdl).sdl() == sdl);
    BOOST_CHECK_THROW((void)gql::schema::from_sdl("type Query { a: Missing }"), std::invalid_argument);
    BOOST_CHECK_THROW((void)gql::schema::from_sdl("type Query { a: Int"), std::invalid_argument);
    BOOST_CHECK_THROW((void)gql::schema::from_sdl("type Mutation { a: Int }"), std::invalid_argument);
}

BOOST_AUTO_TEST_SUITE_END()
