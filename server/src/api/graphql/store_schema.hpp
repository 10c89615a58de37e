#pragma once
// The public store service's GraphQL schema, exactly as it serves it (names, argument types, nullability,
// order): generated clients depend on it (../shared/reference/graphql.md).

#include <string_view>

namespace storefront::server {

inline constexpr std::string_view store_schema_sdl = R"(scalar DateTime

type Product {
  id: ID!
  title: String!
  slug: String!
  price: Float!
  description: String!
  category: Category!
  images: [String!]!
  creationAt: DateTime!
  updatedAt: DateTime!
}

type Category {
  id: ID!
  name: String!
  slug: String!
  image: String!
  creationAt: DateTime!
  updatedAt: DateTime!
  products: [Product!]!
}

type User {
  id: ID!
  email: String!
  password: String!
  name: String!
  role: String!
  avatar: String!
  creationAt: DateTime!
  updatedAt: DateTime!
}

type Login {
  access_token: String!
  refresh_token: String!
}

type Query {
  products(limit: Int, offset: Int, price: Int, price_min: Int, price_max: Int, title: String, categoryId: Float, categorySlug: String): [Product!]!
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

input CreateProductDto {
  title: String!
  price: Float!
  description: String!
  categoryId: Float!
  images: [String!]!
}

input UpdateProductDto {
  title: String
  price: Float
  description: String
  categoryId: Float
  images: [String!]
}

input CreateUserDto {
  email: String!
  name: String!
  password: String!
  role: Role
  avatar: String!
}

input UpdateUserDto {
  email: String
  name: String
  password: String
  role: Role
  avatar: String
}

input CreateCategoryDto {
  name: String!
  image: String!
}

input UpdateCategoryDto {
  name: String
  image: String
}

enum Role {
  admin
  customer
}
)";

}  // namespace storefront::server
