#pragma once
// The resolvers of the store schema, by aggregate. Each calls the core rules and stores the REST handlers
// call, with the view's services from the call's context (graph_call.hpp).

#include "graphql/schema.hpp"

namespace storefront::server {

// Query.products/product/categories/category, Category.products, and the product and category mutations.
void add_catalogue_resolvers(graphql::schema& schema);
// Query.users/user/isAvailable/myProfile, User.password, user mutations, login and refreshToken.
void add_account_resolvers(graphql::schema& schema);
// Query.cart/orders/order and the shop's mutations (issue 42), for the bearer token's user.
void add_shop_resolvers(graphql::schema& schema);

}  // namespace storefront::server
