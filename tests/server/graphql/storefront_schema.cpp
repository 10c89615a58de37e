// The storefront schema for the engine's tests, with resolvers over a small JSON fixture (two categories,
// three products, two users) that mutations append to, recording the order they ran in.

#include "storefront_schema.hpp"

#include <stdexcept>

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

namespace storefront::graphql::testing {

namespace json = boost::json;

const char* const storefront_sdl =
    R"(scalar DateTime          # ISO-8601 UTC string with milliseconds, as in REST bodies

type Product  { id: ID!  title: String!  slug: String!  price: Float!  description: String!  category: Category!
                images: [String!]!  creationAt: DateTime!  updatedAt: DateTime! }
type Category { id: ID!  name: String!  slug: String!  image: String!  creationAt: DateTime!  updatedAt: DateTime!
                products: [Product!]! }
type User     { id: ID!  email: String!  password: String!  name: String!  role: String!  avatar: String!
                creationAt: DateTime!  updatedAt: DateTime! }
type Login    { access_token: String!  refresh_token: String! }

type Query {
  products(limit: Int, offset: Int, price: Int, price_min: Int, price_max: Int, title: String, categoryId: Float,
           categorySlug: String): [Product!]!
  product(id: ID!): Product!
  users(limit: Float): [User!]!
  user(id: ID!): User!
  isAvailable(email: String!): Boolean!
  categories: [Category!]!
  category(id: ID!): Category!
  myProfile: User!
}
type Mutation {
  addProduct(data: CreateProductDto!): Product!
  updateProduct(id: ID!, changes: UpdateProductDto!): Product!
  deleteProduct(id: ID!): Boolean!
  addUser(data: CreateUserDto!): User!
  updateUser(id: ID!, changes: UpdateUserDto!): User!
  deleteUser(id: ID!): Boolean!
  addCategory(data: CreateCategoryDto!): Category!
  updateCategory(id: ID!, changes: UpdateCategoryDto!): Category!
  deleteCategory(id: ID!): Boolean!
  login(email: String!, password: String!): Login!
  refreshToken(refreshToken: String!): Login!
}
input CreateProductDto  { title: String!  price: Float!  description: String!  categoryId: Float!  images: [String!]! }
input UpdateProductDto  { title: String  price: Float  description: String  categoryId: Float  images: [String!] }
input CreateUserDto     { email: String!  name: String!  password: String!  role: Role  avatar: String! }
input UpdateUserDto     { email: String  name: String  password: String  role: Role  avatar: String }
input CreateCategoryDto { name: String!  image: String! }
input UpdateCategoryDto { name: String  image: String }
enum Role { admin customer }
)";

store_fixture::store_fixture()
    : data(json::parse(R"({
  "categories": [
    {"id": 1, "name": "Clothes", "slug": "clothes", "image": "c.png", "creationAt": "2026-01-01T00:00:00.000Z",
     "updatedAt": "2026-01-01T00:00:00.000Z"},
    {"id": 2, "name": "Shoes", "slug": "shoes", "image": "s.png", "creationAt": "2026-01-01T00:00:00.000Z",
     "updatedAt": "2026-01-01T00:00:00.000Z"}
  ],
  "products": [
    {"id": 1, "title": "Shirt", "slug": "shirt", "price": 10, "description": "A shirt", "categoryId": 1,
     "images": ["a.png"], "creationAt": "2026-01-01T00:00:00.000Z", "updatedAt": "2026-01-02T00:00:00.000Z"},
    {"id": 2, "title": "Boots", "slug": "boots", "price": 99.5, "description": "Boots", "categoryId": 2,
     "images": [], "creationAt": "2026-01-01T00:00:00.000Z", "updatedAt": "2026-01-02T00:00:00.000Z"},
    {"id": 3, "title": "Socks", "slug": "socks", "price": 3, "description": "Socks", "categoryId": 2,
     "images": ["x.png", "y.png"], "creationAt": "2026-01-01T00:00:00.000Z", "updatedAt": "2026-01-02T00:00:00.000Z"}
  ],
  "users": [
    {"id": 1, "email": "john@mail.com", "name": "John", "role": "customer", "avatar": "j.png",
     "creationAt": "2026-01-01T00:00:00.000Z", "updatedAt": "2026-01-01T00:00:00.000Z"},
    {"id": 2, "email": "admin@mail.com", "name": "Admin", "role": "admin", "avatar": "a.png",
     "creationAt": "2026-01-01T00:00:00.000Z", "updatedAt": "2026-01-01T00:00:00.000Z"}
  ]
})")) {}

namespace {

store_fixture& fixture_of(const resolve_info& info) {
    return *static_cast<store_fixture*>(info.context);
}

json::array& list_of(const resolve_info& info, const char* name) {
    return fixture_of(info).data.as_object()[name].as_array();
}

std::string id_text(const json::value& v) {
    return v.is_string() ? std::string(v.get_string()) : json::serialize(v);
}

resolved find_by_id(const resolve_info& info, const char* list) {
    const std::string wanted = id_text(info.arguments.at("id"));
    for (const auto& item : list_of(info, list)) {
        if (id_text(item.at("id")) == wanted) {
            return resolved::ok(item);
        }
    }
    return resolved::fail("Not found: " + wanted, "NOT_FOUND");
}

schema build() {
    schema s = schema::from_sdl(storefront_sdl);
    s.resolve("Query", "products", [](const resolve_info& info) {
        json::array out;
        for (const auto& p : list_of(info, "products")) {
            const auto* title = info.arguments.if_contains("title");
            if (title != nullptr && title->is_string() &&
                std::string(p.at("title").get_string()).find(title->get_string()) == std::string::npos) {
                continue;
            }
            out.push_back(p);
        }
        if (const auto* limit = info.arguments.if_contains("limit"); limit != nullptr && limit->is_int64()) {
            out.resize(std::min<std::size_t>(out.size(), static_cast<std::size_t>(limit->get_int64())));
        }
        return resolved::ok(out);
    });
    s.resolve("Query", "product", [](const resolve_info& info) { return find_by_id(info, "products"); });
    s.resolve("Query", "user", [](const resolve_info& info) { return find_by_id(info, "users"); });
    s.resolve("Query", "category", [](const resolve_info& info) { return find_by_id(info, "categories"); });
    s.resolve("Query", "users", [](const resolve_info& info) {
        return resolved::ok(list_of(info, "users"));
    });
    s.resolve("Query", "categories", [](const resolve_info& info) {
        return resolved::ok(list_of(info, "categories"));
    });
    s.resolve("Query", "isAvailable", [](const resolve_info& info) {
        for (const auto& u : list_of(info, "users")) {
            if (u.at("email") == info.arguments.at("email")) {
                return resolved::ok(false);
            }
        }
        return resolved::ok(true);
    });
    s.resolve("Query", "myProfile", [](const resolve_info&) {
        return resolved::fail("Unauthorized", "UNAUTHENTICATED");
    });
    s.resolve("Product", "category", [](const resolve_info& info) {
        for (const auto& c : list_of(info, "categories")) {
            if (c.at("id") == info.parent.at("categoryId")) {
                return resolved::ok(c);
            }
        }
        return resolved::ok(nullptr);  // a broken fixture row: null for a non-null field
    });
    s.resolve("Category", "products", [](const resolve_info& info) {
        json::array out;
        for (const auto& p : list_of(info, "products")) {
            if (p.at("categoryId") == info.parent.at("id")) {
                out.push_back(p);
            }
        }
        return resolved::ok(out);
    });
    s.resolve("Mutation", "addProduct", [](const resolve_info& info) {
        auto& products = list_of(info, "products");
        json::object p = info.arguments.at("data").as_object();
        p["id"] = static_cast<std::int64_t>(products.size() + 1);
        p["slug"] = p["title"];
        p["creationAt"] = "2026-02-01T00:00:00.000Z";
        p["updatedAt"] = "2026-02-01T00:00:00.000Z";
        products.push_back(p);
        fixture_of(info).calls.push_back("addProduct " + std::string(p["title"].as_string()));
        return resolved::ok(p);
    });
    s.resolve("Mutation", "deleteProduct", [](const resolve_info& info) {
        fixture_of(info).calls.push_back("deleteProduct " + id_text(info.arguments.at("id")));
        auto& products = list_of(info, "products");
        for (auto it = products.begin(); it != products.end(); ++it) {
            if (id_text(it->at("id")) == id_text(info.arguments.at("id"))) {
                products.erase(it);
                return resolved::ok(true);
            }
        }
        return resolved::ok(false);
    });
    s.resolve("Mutation", "login", [](const resolve_info& info) -> resolved {
        fixture_of(info).calls.push_back("login");
        throw std::runtime_error("secret detail");
    });
    return s;
}

}  // namespace

const schema& storefront_schema() {
    static const schema s = build();
    return s;
}

execution run(
    const std::string& query,
    store_fixture& fixture,
    const json::object& variables,
    const std::string& operation_name
) {
    const limits bounds;
    const auto prepared = prepare(storefront_schema(), query, bounds);
    if (prepared.document == nullptr) {
        std::string text;
        for (const auto& e : prepared.errors) {
            text += e.message + "\n";
        }
        throw std::runtime_error("preparation failed: " + text);
    }
    return execute(storefront_schema(), *prepared.document, operation_name, variables, &fixture, bounds);
}

std::vector<std::string> preparation_messages(const std::string& query) {
    std::vector<std::string> out;
    for (const auto& e : prepare(storefront_schema(), query, limits{}).errors) {
        out.push_back(e.message);
    }
    return out;
}

}  // namespace storefront::graphql::testing
