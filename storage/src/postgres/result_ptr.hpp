#pragma once
// A libpq result owned by a unique_ptr (PQclear on release), for the connection's own files.

#include <libpq-fe.h>
#include <memory>

namespace storefront::storage::detail {

struct pg_result_deleter {
    void operator()(PGresult* r) const { PQclear(r); }
};
using result_ptr = std::unique_ptr<PGresult, pg_result_deleter>;

// A statement's result that is not a failure (with rows or without).
inline bool succeeded(const PGresult* r) {
    const auto status = PQresultStatus(r);
    return status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK;
}

}  // namespace storefront::storage::detail
