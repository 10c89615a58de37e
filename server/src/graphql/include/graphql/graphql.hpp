#pragma once

// The GraphQL engine's whole public API: schema and resolvers, prepare (parse + validate), the document
// cache, choose_operation, execute and the response JSON.
#include "graphql/document.hpp"
#include "graphql/document_cache.hpp"
#include "graphql/errors.hpp"
#include "graphql/executor.hpp"
#include "graphql/limits.hpp"
#include "graphql/schema.hpp"
