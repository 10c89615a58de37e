// group_commit: the batch SQLite runs for the commit queue, one transaction with a savepoint per change.

#include "sqlite/group_commit.hpp"

#include "storage/storage_error.hpp"

namespace storefront::storage::detail {

void group_commit::commit_batch(batch_taker& take) {
    // The batch is taken once the write connection is ours, so changes queued while a write_lease holder
    // had it join this batch.
    std::lock_guard writer(write_mutex_);
    const auto& batch = take();
    sqlite_connection::transaction tx(db_);
    for (auto* p : batch) {
        run_in_savepoint(*p);
    }
    tx.commit();
}

void group_commit::run_in_savepoint(pending& p) {
    db_.exec("SAVEPOINT change");
    try {
        p.kept = (*p.run)(db_);
    } catch (...) {
        p.failure = std::current_exception();
    }
    if (!db_.in_transaction()) {
        // SQLite rolled the whole transaction back (an I/O error, a full disk): the batch is lost.
        if (p.failure) {
            std::rethrow_exception(p.failure);
        }
        throw storage_unavailable("sqlite: a write's transaction was rolled back");
    }
    if (!p.kept) {
        db_.exec("ROLLBACK TO change");
    }
    db_.exec("RELEASE change");
}

}  // namespace storefront::storage::detail
