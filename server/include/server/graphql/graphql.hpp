#pragma once

// The GraphQL engine's whole public API: schema and resolvers, prepare (parse + validate), the document
// cache, choose_operation, execute and the response JSON.
#include "server/graphql/document.hpp"
#include "server/graphql/document_cache.hpp"
#include "server/graphql/errors.hpp"
#include "server/graphql/executor.hpp"
#include "server/graphql/limits.hpp"
#include "server/graphql/schema.hpp"
