#pragma once
// The public store service's GraphQL schema, exactly as it serves it (names, argument types, nullability,
// order): generated clients depend on it (../shared/reference/graphql.md).

#include <string>
#include <string_view>

namespace storefront::server {

// The fields of a shipping address, written once: the Order's output type and the checkout's input type
// have the same.
inline constexpr std::string_view shipping_address_fields = R"(  name: String!
  line1: String!
  line2: String
  city: String!
  postalCode: String!
  country: String!
)";

// The schema up to the first shipping address's fields, between them, and after the second.
inline constexpr std::string_view store_schema_parts[] = {
    R"(scalar DateTime

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
  stock: Int!
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

type CartItem {
  productId: ID!
  title: String!
  price: Float!
  quantity: Int!
  lineTotal: Float!
}

type Cart {
  id: ID!
  userId: ID!
  items: [CartItem!]!
  totalQuantity: Int!
  subtotal: Float!
  discount: Float!
  total: Float!
  coupon: String
  currency: String!
  createdAt: DateTime
  updatedAt: DateTime
}

type ShippingAddress {
)",
    R"(}

type Order {
  id: ID!
  userId: ID!
  status: String!
  items: [CartItem!]!
  subtotal: Float!
  discount: Float!
  shipping: Float!
  total: Float!
  coupon: String
  currency: String!
  shippingAddress: ShippingAddress!
  createdAt: DateTime!
  updatedAt: DateTime!
  expiresAt: DateTime!
}

type PaymentCard {
  brand: String!
  last4: String!
}

type NextAction {
  type: String!
  url: String!
}

type Payment {
  id: ID!
  orderId: ID!
  amount: Float!
  currency: String!
  status: String!
  card: PaymentCard!
  failureCode: String
  nextAction: NextAction
  createdAt: DateTime!
  updatedAt: DateTime!
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
  cart: Cart!
  orders(status: String, limit: Int, offset: Int): [Order!]!
  order(id: ID!): Order!
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
  addToCart(productId: ID!, quantity: Int!): Cart!
  updateCartItem(productId: ID!, quantity: Int!): Cart!
  removeFromCart(productId: ID!): Cart!
  applyCoupon(code: String!): Cart!
  checkout(shippingAddress: ShippingAddressInput!): Order!
  pay(orderId: ID!, card: CardInput!): Payment!
  cancelOrder(id: ID!): Order!
}

input CreateProductDto {
  title: String!
  price: Float!
  description: String!
  categoryId: Float!
  images: [String!]!
  stock: Int
}

input UpdateProductDto {
  title: String
  price: Float
  description: String
  categoryId: Float
  images: [String!]
  stock: Int
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

input ShippingAddressInput {
)",
    R"(}

input CardInput {
  number: String!
  expMonth: Int!
  expYear: Int!
  cvc: String!
}

enum Role {
  admin
  customer
}
)",
};

// The whole schema's text (read when a schema is built, never during static initialisation).
inline const std::string store_schema_sdl = [] {
    std::string sdl(store_schema_parts[0]);
    sdl.append(shipping_address_fields).append(store_schema_parts[1]);
    sdl.append(shipping_address_fields).append(store_schema_parts[2]);
    return sdl;
}();

}  // namespace storefront::server
