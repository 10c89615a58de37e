// pg_group_commit: the batch PostgreSQL runs for the commit queue, one transaction with a savepoint per
// change, one NOTIFY and one commit.

#include "postgres/group_commit.hpp"

#include "storage/storage_error.hpp"

namespace storefront::storage::detail {

void pg_group_commit::commit_batch(batch_taker& take) {
    auto conn = hooks_.connection();  // the changes queued while we waited for it join the batch
    const auto& batch = take();
    named_.clear();
    pg_transaction tx(*conn);
    for (auto* p : batch) {
        run_in_savepoint(*conn, *p);
    }
    if (!named_.empty()) {
        hooks_.announce(*conn, named_);
    }
    tx.commit();
    hooks_.record(named_);
}

void pg_group_commit::run_in_savepoint(pg_connection& conn, pending& p) {
    const auto named_before = named_.size();
    (void)conn.exec("SAVEPOINT change");
    try {
        p.kept = (*p.run)(conn);
    } catch (...) {
        p.failure = std::current_exception();
        p.kept = false;
    }
    if (!conn.healthy()) {
        // The connection is gone, and the transaction with it: the batch is lost.
        if (p.failure) {
            std::rethrow_exception(p.failure);
        }
        throw storage_unavailable("postgresql: the connection was lost during a write");
    }
    if (!p.kept) {
        named_.resize(named_before);  // a change that answered an error names nothing
        (void)conn.exec("ROLLBACK TO SAVEPOINT change");
    }
    (void)conn.exec("RELEASE SAVEPOINT change");
}

}  // namespace storefront::storage::detail
