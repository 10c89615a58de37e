// group_commit: a SQLite file's writes through the leader/follower queue (common/batching_queue.hpp), each
// batch one transaction with a savepoint per change.

#include "sqlite/group_commit.hpp"

#include "storage/storage_error.hpp"

namespace storefront::storage::detail {

group_commit::~group_commit() {
    roll_back();
}

void group_commit::run(const change& c) {
    if (auto* batch = write_batch::open_on_this_thread(); batch != nullptr && join(*batch)) {
        run_in_joined_batch(c);
        return;
    }
    pending mine(c);
    queue_.run(mine, [this](const auto& take) {
        // The batch is taken once the write connection is ours, so changes queued while a write_lease
        // holder had it join this batch.
        std::lock_guard writer(write_mutex_);
        commit_batch(take());
    });
}

void group_commit::commit_batch(const std::vector<pending*>& batch) {
    try {
        sqlite_connection::transaction tx(db_);
        for (auto* p : batch) {
            run_in_savepoint(*p);
        }
        if (before_commit_) {
            before_commit_(db_);
        }
        tx.commit();
    } catch (...) {
        // Nothing of the batch is on disk: no change was acknowledged, each caller gets the failure.
        for (auto* p : batch) {
            p->kept = false;
            if (!p->failure) {
                p->failure = std::current_exception();
            }
        }
        return;
    }
    commits_.fetch_add(1, std::memory_order_acq_rel);
}

void group_commit::run_in_savepoint(pending& p) {
    db_.run("SAVEPOINT change");
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
        db_.run("ROLLBACK TO change");
    }
    db_.run("RELEASE change");
}

bool group_commit::join(write_batch& batch) {
    if (batch.holds(*this)) {
        return true;
    }
    if (batch.taken()) {
        return false;  // another database holds the batch: this write commits by itself
    }
    (void)batch.join(*this);
    try {
        std::unique_lock writer(write_mutex_);
        batch_transaction_.emplace(db_);
        batch_writer_ = std::move(writer);
    } catch (...) {
        // Busy past the timeout (another process holds the file), or an I/O error: the batch keeps the
        // failure, so its later writes fail at once instead of each waiting out the busy timeout again.
        batch_lost_ = std::current_exception();
    }
    return true;
}

void group_commit::run_in_joined_batch(const change& c) {
    if (batch_lost_) {
        std::rethrow_exception(batch_lost_);
    }
    pending p(c);
    try {
        run_in_savepoint(p);
    } catch (...) {
        batch_lost_ = std::current_exception();  // the transaction is gone: later writes must not start one
        throw;
    }
    if (p.failure) {
        std::rethrow_exception(p.failure);
    }
}

void group_commit::after_commit(std::function<void()> work) {
    if (held_by_this_thread()) {
        batch_after_commit_.push_back(std::move(work));
    } else {
        work();
    }
}

bool group_commit::held_by_this_thread() const {
    const auto* batch = write_batch::open_on_this_thread();
    return batch != nullptr && batch->holds(*this);
}

void group_commit::commit() {
    if (batch_lost_) {
        std::rethrow_exception(batch_lost_);
    }
    if (before_commit_) {
        before_commit_(db_);
    }
    batch_transaction_->commit();
    commits_.fetch_add(1, std::memory_order_acq_rel);
    // Still holding the write connection: journal records stay in commit order.
    for (auto& work : batch_after_commit_) {
        work();
    }
    batch_after_commit_.clear();
    batch_transaction_.reset();
    batch_writer_ = {};
}

void group_commit::roll_back() noexcept {
    batch_transaction_.reset();  // rolls back unless committed
    batch_after_commit_.clear();
    batch_lost_ = nullptr;
    if (batch_writer_.owns_lock()) {
        batch_writer_.unlock();
    }
    batch_writer_ = {};
}

}  // namespace storefront::storage::detail
