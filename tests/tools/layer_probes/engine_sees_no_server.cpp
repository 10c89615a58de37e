// Compiled as part of the GraphQL engine: nothing of server/ is visible to it.
#include "server/codec/json_writer.hpp"
