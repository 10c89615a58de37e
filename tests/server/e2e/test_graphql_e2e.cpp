// End to end over HTTP: GraphQL at /graphql (issue 25) on memory and SQLite (server_tests) and PostgreSQL
// (server_tests_pg): every operation of the schema through the same services as REST, where the public
// service is broken doing what was meant, tokens across surfaces, sandboxes, GraphQL over HTTP (methods,
// media types, statuses), router errors in each surface's own shape, and hostile documents.

#include <chrono>
#include <cstdlib>
#include <string>
#include <vector>

#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>

#include "common/pg_server.hpp"
#include "common/temp_dir.hpp"
#include "http_client.hpp"
#include "test_server.hpp"

namespace json = boost::json;
using namespace storefront;
using namespace storefront::test;

namespace {

struct backend {
    std::string name;
    std::string storage;
};

// memory and SQLite, or PostgreSQL (a fresh database per call) under server_tests_pg.
std::vector<backend> backends(const temp_dir& dir, const std::string& file) {
    if (std::getenv("TEST_PG_DSN")) {
        return {{"postgresql", create_test_database()}};
    }
    return {{"memory", "memory"}, {"sqlite", "sqlite:" + (dir.path() / file).string()}};
}

server::server_config graphql_config(const std::string& storage) {
    auto c = test_config();
    c.storage.backend = storage;
    c.storage.generated_locations = 1000;
    return c;
}

// POST /graphql (under `base`: "" or "/sandbox/{id}") with `query` and `variables`.
http_reply post_graphql(
    std::uint16_t port,
    const std::string& query,
    const json::object& variables = {},
    const std::vector<std::pair<std::string, std::string>>& headers = {},
    const std::string& base = ""
) {
    json::object body{{"query", query}};
    if (!variables.empty()) {
        body["variables"] = variables;
    }
    return send_request(
        port,
        {.method = "POST",
         .target = base + "/graphql",
         .body = json::serialize(body),
         .content_type = "application/json",
         .headers = headers}
    );
}

// The data of a successful answer (status 200, no errors).
json::value data_of(const http_reply& reply) {
    BOOST_TEST_REQUIRE(reply.status == 200u, reply.body);
    const auto doc = reply.json();
    BOOST_TEST_REQUIRE(!doc.as_object().contains("errors"), reply.body);
    return doc.at("data");
}

// The first error's extensions.code.
std::string first_code(const http_reply& reply) {
    const auto doc = reply.json();
    BOOST_TEST_REQUIRE(doc.as_object().contains("errors"), reply.body);
    const auto& error = doc.at("errors").as_array().at(0).as_object();
    return std::string(error.at("extensions").at("code").as_string());
}

std::string first_message(const http_reply& reply) {
    return std::string(reply.json().at("errors").as_array().at(0).at("message").as_string());
}

std::string access_token(std::uint16_t port, const std::string& base = "") {
    const auto reply = post_graphql(
        port,
        R"(mutation { login(email: "john@mail.com", password: "changeme") { access_token refresh_token } })",
        {},
        {},
        base
    );
    return std::string(data_of(reply).at("login").at("access_token").as_string());
}

}  // namespace

BOOST_AUTO_TEST_SUITE(graphql_e2e)

BOOST_AUTO_TEST_CASE(queries_answer_what_rest_answers) {
    temp_dir dir;
    for (const auto& b : backends(dir, "queries.db")) {
        BOOST_TEST_CONTEXT(b.name) {
            running_server server(graphql_config(b.storage));
            const auto port = server.port();
            // A page only with limit and offset both given, in id order, with the REST fields.
            auto page = data_of(post_graphql(
                port,
                "{ products(limit: 3, offset: 2) { id title price slug images creationAt category { id name "
                "} } }"
            ));
            const auto rest = get(port, "/api/v1/products?offset=2&limit=3").json().as_array();
            const auto& items = page.at("products").as_array();
            BOOST_TEST_REQUIRE(items.size() == 3u);
            for (std::size_t i = 0; i < 3; ++i) {
                BOOST_TEST(items[i].at("id").as_string() == std::to_string(rest[i].at("id").as_int64()));
                BOOST_TEST(items[i].at("title") == rest[i].at("title"));
                BOOST_TEST(items[i].at("slug") == rest[i].at("slug"));
                BOOST_TEST(items[i].at("images") == rest[i].at("images"));
                BOOST_TEST(items[i].at("creationAt") == rest[i].at("creationAt"));
                BOOST_TEST(items[i].at("category").at("name") == rest[i].at("category").at("name"));
            }
            const auto whole = data_of(post_graphql(port, "{ products(limit: 3) { id } }"));
            BOOST_TEST(whole.at("products").as_array().size() == 51u);  // limit alone: the whole list
            // Filters with the REST rules and texts.
            const auto cheap =
                data_of(post_graphql(port, "{ products(price_min: 0, price_max: 20) { price } }"));
            for (const auto& p : cheap.at("products").as_array()) {
                BOOST_TEST(p.at("price").to_number<double>() <= 20.0);
            }
            const auto by_category =
                data_of(post_graphql(port, "{ products(categoryId: 2) { category { id } } }"));
            BOOST_TEST(!by_category.at("products").as_array().empty());
            for (const auto& p : by_category.at("products").as_array()) {
                BOOST_TEST(p.at("category").at("id").as_string() == "2");
            }
            const auto negative = post_graphql(port, "{ products(price_min: -1, price_max: 5) { id } }");
            BOOST_TEST(first_code(negative) == "BAD_USER_INPUT");
            BOOST_TEST(
                first_message(negative).find("price_min must not be less than 0") != std::string::npos
            );
            // Single items; unknown ids are NOT_FOUND, not internal errors.
            const auto one = data_of(post_graphql(port, "{ product(id: 7) { id title category { slug } } }"));
            BOOST_TEST(one.at("product").at("title") == get(port, "/api/v1/products/7").json().at("title"));
            const auto unknown = post_graphql(port, "{ product(id: 999999) { id } }");
            BOOST_TEST(unknown.status == 200u);
            BOOST_TEST(first_code(unknown) == "NOT_FOUND");
            BOOST_TEST(unknown.json().at("data").is_null());
            BOOST_TEST(
                first_code(post_graphql(port, R"({ product(id: "abc") { id } })")) == "BAD_USER_INPUT"
            );
            // Categories and Category.products (never resolved by the public service).
            const auto category =
                data_of(post_graphql(port, "{ category(id: 1) { name products { id category { id } } } }"));
            BOOST_TEST(!category.at("category").at("products").as_array().empty());
            for (const auto& p : category.at("category").at("products").as_array()) {
                BOOST_TEST(p.at("category").at("id").as_string() == "1");
            }
            BOOST_TEST(
                data_of(post_graphql(port, "{ categories { id } }")).at("categories").as_array().size() == 5u
            );
            BOOST_TEST(first_code(post_graphql(port, "{ category(id: 4242) { id } }")) == "NOT_FOUND");
            // Users: never a password, a fixed mask.
            const auto users = data_of(post_graphql(port, "{ users(limit: 2) { id email password role } }"));
            BOOST_TEST_REQUIRE(users.at("users").as_array().size() == 2u);
            BOOST_TEST(users.at("users").as_array()[0].at("password").as_string() == "********");
            BOOST_TEST(
                data_of(post_graphql(port, "{ user(id: 1) { email } }")).at("user").at("email") ==
                "john@mail.com"
            );
            // isAvailable tells the truth.
            BOOST_TEST(
                data_of(post_graphql(port, R"({ isAvailable(email: "john@mail.com") })")).at("isAvailable") ==
                false
            );
            BOOST_TEST(
                data_of(post_graphql(port, R"({ isAvailable(email: "free-one@mail.com") })"))
                    .at("isAvailable") == true
            );
            BOOST_TEST(
                first_code(post_graphql(port, R"({ isAvailable(email: "nope") })")) == "BAD_USER_INPUT"
            );
        }
    }
}

BOOST_AUTO_TEST_CASE(mutations_follow_the_rest_rules) {
    temp_dir dir;
    for (const auto& b : backends(dir, "mutations.db")) {
        BOOST_TEST_CONTEXT(b.name) {
            running_server server(graphql_config(b.storage));
            const auto port = server.port();
            const auto category = data_of(post_graphql(
                port,
                "mutation($data: CreateCategoryDto!) { addCategory(data: $data) { id name slug } }",
                {{"data", {{"name", "Graph Lamps"}, {"image", "https://placehold.co/600x400"}}}}
            ));
            const std::string category_id(category.at("addCategory").at("id").as_string());
            BOOST_TEST(category.at("addCategory").at("slug") == "graph-lamps");
            const auto duplicate = post_graphql(
                port,
                R"(mutation { addCategory(data: {name: "Graph Lamps", image: "https://placehold.co/600x400"}) { id } })"
            );
            BOOST_TEST(first_code(duplicate) == "BAD_USER_INPUT");
            const auto product = data_of(post_graphql(
                port,
                "mutation($data: CreateProductDto!) { addProduct(data: $data) { id title price category { id "
                "} } }",
                {{"data",
                  {{"title", "Graph Lamp"},
                   {"price", 12.5},
                   {"description", "d"},
                   {"categoryId", std::stoi(category_id)},
                   {"images", json::array{"https://placehold.co/600x400"}}}}}
            ));
            const std::string product_id(product.at("addProduct").at("id").as_string());
            BOOST_TEST(product.at("addProduct").at("category").at("id").as_string() == category_id);
            BOOST_TEST(get(port, "/api/v1/products/" + product_id).status == 200u);  // REST sees it
            // A title-only update works (the public service crashes without images).
            const auto renamed = data_of(post_graphql(
                port,
                "mutation { updateProduct(id: " + product_id +
                    R"(, changes: {title: "Graph Lamp 2"}) { title images } })"
            ));
            BOOST_TEST(renamed.at("updateProduct").at("title") == "Graph Lamp 2");
            BOOST_TEST(renamed.at("updateProduct").at("images").as_array().size() == 1u);
            const auto unknown_category = post_graphql(
                port,
                R"(mutation { addProduct(data: {title: "X", price: 1, description: "d", categoryId: 4242, images: ["https://placehold.co/600x400"]}) { id } })"
            );
            BOOST_TEST(first_code(unknown_category) == "BAD_USER_INPUT");
            BOOST_TEST(first_message(unknown_category) == "Category 4242 not found");
            const auto invalid = post_graphql(
                port,
                R"(mutation { addProduct(data: {title: "", price: -1, description: "d", categoryId: 1, images: []}) { id } })"
            );
            BOOST_TEST(first_code(invalid) == "BAD_USER_INPUT");
            // Seed rows are read-only, as in REST.
            BOOST_TEST(
                first_code(post_graphql(
                    port, R"(mutation { updateProduct(id: 1, changes: {title: "Mine"}) { id } })"
                )) == "FORBIDDEN"
            );
            BOOST_TEST(
                first_code(
                    post_graphql(port, R"(mutation { updateUser(id: 1, changes: {name: "Mine"}) { id } })")
                ) == "FORBIDDEN"
            );
            BOOST_TEST(
                first_code(post_graphql(port, "mutation { deleteProduct(id: 999999) }")) == "NOT_FOUND"
            );
            // A category with products is still in use.
            BOOST_TEST(
                first_code(post_graphql(port, "mutation { deleteCategory(id: " + category_id + ") }")) ==
                "BAD_USER_INPUT"
            );
            BOOST_TEST(
                data_of(post_graphql(port, "mutation { deleteProduct(id: " + product_id + ") }"))
                    .at("deleteProduct") == true
            );
            BOOST_TEST(get(port, "/api/v1/products/" + product_id).status == 404u);
            BOOST_TEST(
                data_of(post_graphql(port, "mutation { deleteCategory(id: " + category_id + ") }"))
                    .at("deleteCategory") == true
            );
            // Users: registration, update and delete of one's own account.
            const auto user = data_of(post_graphql(
                port,
                R"(mutation { addUser(data: {email: "graph@mail.com", name: "Graph", password: "secret123", avatar: "https://placehold.co/600x400"}) { id email role password } })"
            ));
            const std::string user_id(user.at("addUser").at("id").as_string());
            BOOST_TEST(user.at("addUser").at("role") == "customer");
            BOOST_TEST(user.at("addUser").at("password") == "********");
            BOOST_TEST(
                first_code(post_graphql(
                    port,
                    R"(mutation { addUser(data: {email: "graph@mail.com", name: "G", password: "secret123", avatar: "https://placehold.co/600x400"}) { id } })"
                )) == "BAD_USER_INPUT"
            );
            // A password change needs the account's own token (issue 45): anonymous, it is refused.
            const std::string change = "mutation { updateUser(id: " + user_id +
                                       R"(, changes: {name: "Graph 2", password: "other123"}) { name } })";
            BOOST_TEST(first_code(post_graphql(port, change)) == "UNAUTHENTICATED");
            const auto own =
                post_json(port, "/api/v1/auth/login", R"({"email":"graph@mail.com","password":"secret123"})");
            BOOST_TEST_REQUIRE(own.status == 201u);
            const std::string bearer = "Bearer " + std::string(own.json().at("access_token").as_string());
            const auto updated = data_of(post_graphql(port, change, {}, {{"Authorization", bearer}}));
            BOOST_TEST(updated.at("updateUser").at("name") == "Graph 2");
            const auto login =
                post_json(port, "/api/v1/auth/login", R"({"email":"graph@mail.com","password":"other123"})");
            BOOST_TEST(login.status == 201u);  // the new password works on REST
            BOOST_TEST(
                data_of(post_graphql(port, "mutation { deleteUser(id: " + user_id + ") }"))
                    .at("deleteUser") == true
            );
        }
    }
}

BOOST_AUTO_TEST_CASE(one_login_works_on_both_surfaces) {
    running_server server(graphql_config("memory"));
    const auto port = server.port();
    // myProfile without a token: UNAUTHENTICATED (apps refresh on this code).
    const auto anonymous = post_graphql(port, "{ myProfile { id } }");
    BOOST_TEST(first_code(anonymous) == "UNAUTHENTICATED");
    // A GraphQL login's token on REST.
    const std::string token = access_token(port);
    const auto profile = send_request(
        port,
        {.method = "GET", .target = "/api/v1/auth/profile", .headers = {{"Authorization", "Bearer " + token}}}
    );
    BOOST_TEST(profile.status == 200u);
    BOOST_TEST(profile.json().at("email") == "john@mail.com");
    // A REST login's token on GraphQL.
    const auto rest_login =
        post_json(port, "/api/v1/auth/login", R"({"email":"maria@mail.com","password":"12345"})");
    BOOST_TEST_REQUIRE(rest_login.status == 201u, rest_login.body);
    const std::string rest_token(rest_login.json().at("access_token").as_string());
    const auto mine = data_of(post_graphql(
        port, "{ myProfile { email password } }", {}, {{"Authorization", "Bearer " + rest_token}}
    ));
    BOOST_TEST(mine.at("myProfile").at("email") == "maria@mail.com");
    BOOST_TEST(mine.at("myProfile").at("password") == "********");
    // Refresh rotates: the pair works once.
    const std::string refresh(rest_login.json().at("refresh_token").as_string());
    const auto refreshed = post_graphql(
        port, "mutation($t: String!) { refreshToken(refreshToken: $t) { access_token } }", {{"t", refresh}}
    );
    BOOST_TEST(!data_of(refreshed).at("refreshToken").at("access_token").as_string().empty());
    const auto replayed = post_graphql(
        port, "mutation($t: String!) { refreshToken(refreshToken: $t) { access_token } }", {{"t", refresh}}
    );
    BOOST_TEST(first_code(replayed) == "UNAUTHENTICATED");
    BOOST_TEST(
        first_code(post_graphql(
            port, R"(mutation { login(email: "john@mail.com", password: "wrong") { access_token } })"
        )) == "UNAUTHENTICATED"
    );
}

BOOST_AUTO_TEST_CASE(sandboxes_keep_graphql_writes_to_themselves) {
    temp_dir dir;
    for (const auto& b : backends(dir, "sandboxes.db")) {
        BOOST_TEST_CONTEXT(b.name) {
            running_server server(graphql_config(b.storage));
            const auto port = server.port();
            const std::string add =
                R"(mutation { addCategory(data: {name: "Sandboxed", image: "https://placehold.co/600x400"}) { id } })";
            // By prefix: the sandbox's own first id, invisible to the shared view and other sandboxes.
            const auto made = data_of(post_graphql(port, add, {}, {}, "/sandbox/graph-1"));
            BOOST_TEST(made.at("addCategory").at("id").as_string() == "6");
            BOOST_TEST(
                data_of(post_graphql(port, "{ categories { id } }")).at("categories").as_array().size() == 5u
            );
            BOOST_TEST(
                data_of(post_graphql(port, "{ categories { id } }", {}, {}, "/sandbox/graph-1"))
                    .at("categories")
                    .as_array()
                    .size() == 6u
            );
            BOOST_TEST(get(port, "/sandbox/graph-1/api/v1/categories/6").status == 200u);  // and REST in it
            // By header.
            const auto by_header =
                data_of(post_graphql(port, "{ categories { id } }", {}, {{"X-Sandbox", "graph-1"}}));
            BOOST_TEST(by_header.at("categories").as_array().size() == 6u);
            BOOST_TEST(
                data_of(post_graphql(port, "{ categories { id } }", {}, {}, "/sandbox/graph-2"))
                    .at("categories")
                    .as_array()
                    .size() == 5u
            );
            // A token of one sandbox is not valid in the shared view.
            const std::string token = access_token(port, "/sandbox/graph-1");
            BOOST_TEST(
                first_code(
                    post_graphql(port, "{ myProfile { id } }", {}, {{"Authorization", "Bearer " + token}})
                ) == "UNAUTHENTICATED"
            );
            BOOST_TEST(
                data_of(post_graphql(
                            port,
                            "{ myProfile { email } }",
                            {},
                            {{"Authorization", "Bearer " + token}},
                            "/sandbox/graph-1"
                        ))
                    .at("myProfile")
                    .at("email") == "john@mail.com"
            );
            // Queries over POST do not give a sandbox stores of its own; reset drops them.
            BOOST_TEST(send_request(port, {.method = "DELETE", .target = "/sandbox/graph-1"}).status == 204u);
            BOOST_TEST(
                data_of(post_graphql(port, "{ categories { id } }", {}, {}, "/sandbox/graph-1"))
                    .at("categories")
                    .as_array()
                    .size() == 5u
            );
        }
    }
}

BOOST_AUTO_TEST_CASE(sandbox_row_quota_refuses_graphql_additions) {
    auto config = graphql_config("memory");
    config.sandboxes.max_rows = 1;
    running_server server(config);
    const auto port = server.port();
    const auto add = [&](const std::string& name) {
        return post_graphql(
            port,
            R"(mutation { addCategory(data: {name: ")" + name +
                R"(", image: "https://placehold.co/600x400"}) { id } })",
            {},
            {},
            "/sandbox/quota-1"
        );
    };
    BOOST_TEST(add("One").status == 200u);
    const auto full = add("Two");
    BOOST_TEST(full.status == 507u);
    BOOST_TEST(first_code(full) == "INSUFFICIENT_STORAGE");
}

BOOST_AUTO_TEST_CASE(graphql_over_http) {
    running_server server(graphql_config("memory"));
    const auto port = server.port();
    // GET queries, no content type needed; mutations over GET are 405 Allow: POST.
    const auto by_get = get(port, "/graphql?query=%7B%20product(id%3A%201)%20%7B%20id%20%7D%20%7D");
    BOOST_TEST(by_get.status == 200u, by_get.body);
    BOOST_TEST(by_get.json().at("data").at("product").at("id") == "1");
    BOOST_TEST(by_get.header("content-type").starts_with("application/json"));
    const auto get_mutation = get(port, "/graphql?query=mutation%20%7B%20deleteProduct(id%3A%201)%20%7D");
    BOOST_TEST(get_mutation.status == 405u);
    BOOST_TEST(get_mutation.header("allow") == "POST");
    BOOST_TEST(get(port, "/api/v1/products/1").status == 200u);  // nothing changed
    // Media types: Accept decides; other bodies are 415; batches 400.
    const auto typed = send_request(
        port,
        {.method = "POST",
         .target = "/graphql",
         .body = R"({"query":"{ categories { id } }"})",
         .content_type = "application/json",
         .headers = {{"Accept", "application/graphql-response+json, application/json;q=0.9"}}}
    );
    BOOST_TEST(typed.status == 200u);
    BOOST_TEST(typed.header("content-type").starts_with("application/graphql-response+json"));
    BOOST_TEST(
        send_request(
            port,
            {.method = "POST",
             .target = "/graphql",
             .body = "{ categories { id } }",
             .content_type = "text/plain"}
        )
            .status == 415u
    );
    const auto batch = send_request(
        port,
        {.method = "POST",
         .target = "/graphql",
         .body = R"([{"query":"{ categories { id } }"}])",
         .content_type = "application/json"}
    );
    BOOST_TEST(batch.status == 400u);
    BOOST_TEST(batch.json().at("errors").as_array().size() == 1u);
    BOOST_TEST(
        send_request(
            port,
            {.method = "POST",
             .target = "/graphql",
             .body = "{}",
             .content_type = "application/json",
             .headers = {{"Accept", "text/csv"}}}
        ).status == 406u
    );
    // Parse errors: GRAPHQL_PARSE_FAILED with a location, validation: GRAPHQL_VALIDATION_FAILED; 400 when the
    // client takes application/graphql-response+json, 200 for application/json (GraphQL over HTTP).
    const auto parse = send_request(
        port,
        {.method = "POST",
         .target = "/graphql",
         .body = R"({"query":"{ products { id }"})",
         .content_type = "application/json",
         .headers = {{"Accept", "application/graphql-response+json"}}}
    );
    BOOST_TEST(parse.status == 400u);
    BOOST_TEST(post_graphql(port, "{ products { id }").status == 200u);
    BOOST_TEST(first_code(parse) == "GRAPHQL_PARSE_FAILED");
    BOOST_TEST(parse.json().at("errors").as_array()[0].as_object().contains("locations"));
    BOOST_TEST(!parse.json().as_object().contains("data"));
    const auto unknown_field = send_request(
        port,
        {.method = "POST",
         .target = "/graphql",
         .body = R"({"query":"{ products { id nope } }"})",
         .content_type = "application/json",
         .headers = {{"Accept", "application/graphql-response+json"}}}
    );
    BOOST_TEST(unknown_field.status == 400u);
    BOOST_TEST(first_code(unknown_field) == "GRAPHQL_VALIDATION_FAILED");
    // Variables of the wrong type: BAD_USER_INPUT, nothing runs.
    const auto wrong_variable =
        post_graphql(port, "query($id: ID!) { product(id: $id) { id } }", {{"id", json::array{1, 2}}});
    BOOST_TEST(first_code(wrong_variable) == "BAD_USER_INPUT");
    // A browser gets GraphiQL (offline, under the same CSP as /docs); urql's Accept still gets a query
    // answer.
    const auto page = send_request(
        port,
        {.method = "GET",
         .target = "/graphql",
         .headers = {{"Accept", "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"}}}
    );
    BOOST_TEST(page.status == 200u);
    BOOST_TEST(page.header("content-type").starts_with("text/html"));
    BOOST_TEST(page.body.find("graphiql") != std::string::npos);
    BOOST_TEST(page.header("content-security-policy").find("default-src 'none'") != std::string::npos);
    const auto urql = send_request(
        port,
        {.method = "GET",
         .target = "/graphql?query=%7B__typename%7D",
         .headers =
             {{"Accept",
               "application/graphql-response+json, application/graphql+json, application/json, "
               "text/event-stream, multipart/mixed"}}}
    );
    BOOST_TEST(urql.status == 200u);
    BOOST_TEST(urql.json().at("data").at("__typename") == "Query");
    // The schema as SDL.
    const auto sdl = get(port, "/graphql/schema.graphql");
    BOOST_TEST(sdl.status == 200u);
    BOOST_TEST(sdl.body.find("type Query {") != std::string::npos);
    BOOST_TEST(sdl.body.find("categoryId: Float") != std::string::npos);
    // Introspection is on.
    const auto type = data_of(post_graphql(port, R"({ __type(name: "Product") { name fields { name } } })"));
    BOOST_TEST(type.at("__type").at("fields").as_array().size() == 10u);  // and stock (issue 42)
}

BOOST_AUTO_TEST_CASE(router_errors_come_in_each_surfaces_shape) {
    running_server server(graphql_config("memory"));
    const auto port = server.port();
    // /graphql: GraphQL errors.
    const auto wrong_method = send_request(
        port, {.method = "PUT", .target = "/graphql", .body = "{}", .content_type = "application/json"}
    );
    BOOST_TEST(wrong_method.status == 405u);
    BOOST_TEST(first_code(wrong_method) == "METHOD_NOT_ALLOWED");
    const auto unknown = get(port, "/graphql/nothing-here");
    BOOST_TEST(unknown.status == 404u);
    BOOST_TEST(first_code(unknown) == "NOT_FOUND");
    const auto too_large = send_request(
        port,
        {.method = "POST",
         .target = "/graphql",
         .body = R"({"query":")" + std::string(200 * 1024, ' ') + R"({ categories { id } }"})",
         .content_type = "application/json"}
    );
    BOOST_TEST(too_large.status == 413u);
    BOOST_TEST(first_code(too_large) == "PAYLOAD_TOO_LARGE");
    // /api/v3: {"code","message"} as its OpenAPI document says.
    for (const auto& [method, target, status] : std::vector<std::tuple<std::string, std::string, unsigned>>{
             {"GET", "/api/v3/nothing-here", 404u},
             {"PATCH", "/api/v3/pet", 405u},
             {"GET", "/sandbox/shape-1/api/v3/nothing-here", 404u}}) {
        BOOST_TEST_CONTEXT(method << " " << target) {
            const auto reply = send_request(port, {.method = method, .target = target});
            BOOST_TEST(reply.status == status);
            BOOST_TEST(reply.json().at("code").as_int64() == static_cast<std::int64_t>(status));
            BOOST_TEST(!reply.json().as_object().contains("statusCode"));
        }
    }
    // /api/v1 keeps its own.
    const auto store = get(port, "/api/v1/nothing-here");
    BOOST_TEST(store.json().at("statusCode").as_int64() == 404);
}

BOOST_AUTO_TEST_CASE(hostile_documents_get_clear_errors_and_change_nothing) {
    running_server server(graphql_config("memory"));
    const auto port = server.port();
    const auto started = std::chrono::steady_clock::now();
    // Nesting deeper than --graphql-max-depth (20): refused before anything runs; 20 levels pass.
    const auto nested = [](int levels) {
        std::string open = "{ categories {";
        std::string close = " } }";
        for (int i = 2; i < levels; ++i) {
            open += i % 2 == 0 ? " products {" : " category {";
            close += " }";
        }
        return open + " id" + close;
    };
    const auto too_deep = send_request(
        port,
        {.method = "POST",
         .target = "/graphql",
         .body = json::serialize(json::object{{"query", nested(21)}}),
         .content_type = "application/json",
         .headers = {{"Accept", "application/graphql-response+json"}}}
    );
    BOOST_TEST(too_deep.status == 400u, too_deep.body);
    BOOST_TEST(first_code(too_deep) == "GRAPHQL_VALIDATION_FAILED");
    BOOST_TEST(post_graphql(port, nested(20)).status == 200u);
    // Thousands of aliases, directives, huge strings, invalid UTF-8, deep values.
    std::string aliases = "{";
    for (int i = 0; i < 5000; ++i) {
        aliases += " a" + std::to_string(i) + ": categories { id }";
    }
    aliases += " }";
    BOOST_TEST(post_graphql(port, aliases).json().as_object().contains("errors"));
    std::string directives = "{ categories @include(if: true)";
    for (int i = 0; i < 3000; ++i) {
        directives += " @skip(if: false)";
    }
    directives += " { id } }";
    BOOST_TEST(post_graphql(port, directives).json().as_object().contains("errors"));
    BOOST_TEST(post_graphql(port, R"({ isAvailable(email: ")" + std::string(60000, 'x') + R"(") })")
                   .json()
                   .as_object()
                   .contains("errors"));
    const auto bad_utf8 = send_request(
        port,
        {.method = "POST",
         .target = "/graphql",
         .body = "{\"query\":\"{ categories { id \xC3\x28 } }\"}",
         .content_type = "application/json"}
    );
    BOOST_TEST(bad_utf8.status == 400u);
    BOOST_TEST(bad_utf8.json().as_object().contains("errors"));
    std::string nested_value =
        "{ products(title: " + std::string(5000, '[') + std::string(5000, ']') + ") { id } }";
    BOOST_TEST(post_graphql(port, nested_value).json().as_object().contains("errors"));
    // More fields than --graphql-max-fields: an error, not a huge answer.
    std::string wide = "{";
    for (int i = 0; i < 20; ++i) {
        wide += " p" + std::to_string(i) +
                ": products { id title price slug description images creationAt updatedAt category { id name "
                "slug image } }";
    }
    wide += " }";
    const auto too_wide = post_graphql(port, wide);
    BOOST_TEST(too_wide.json().as_object().contains("errors"));
    const bool quick = std::chrono::steady_clock::now() - started < std::chrono::seconds(20);
    BOOST_TEST(quick);
    // Still serving, nothing changed.
    BOOST_TEST(data_of(post_graphql(port, "{ categories { id } }")).at("categories").as_array().size() == 5u);
}

BOOST_AUTO_TEST_SUITE_END()
