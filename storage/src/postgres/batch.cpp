// pg_batch: joining a thread's write_batch with a borrowed connection and its transaction, and the commit
// (then the journal records) or roll-back of it.

#include "postgres/batch.hpp"

namespace storefront::storage::detail {

pg_connection* pg_batch::joined() {
    auto* batch = write_batch::open_on_this_thread();
    if (batch == nullptr) {
        return nullptr;
    }
    if (batch->holds(*this)) {
        return &**conn_;
    }
    if (batch->taken()) {
        return nullptr;
    }
    // Borrowed and begun before joining: a batch that cannot begin is not joined, and the next write tries
    // again.
    std::unique_lock hold(held_);
    conn_.emplace(pool_.borrow());
    try {
        tx_.emplace(**conn_);
    } catch (...) {
        conn_.reset();
        throw;
    }
    hold_ = std::move(hold);
    (void)batch->join(*this);
    return &**conn_;
}

void pg_batch::check_not_lost() const {
    if (lost_) {
        std::rethrow_exception(lost_);
    }
}

bool pg_batch::held_by_this_thread() const {
    const auto* batch = write_batch::open_on_this_thread();
    return batch != nullptr && batch->holds(*this);
}

void pg_batch::after_commit(std::function<void()> work) {
    if (held_by_this_thread()) {
        after_commit_.push_back(std::move(work));
    } else {
        work();
    }
}

void pg_batch::commit() {
    check_not_lost();
    tx_->commit();
    for (auto& work : after_commit_) {
        work();
    }
    roll_back();  // nothing left to roll back: gives the connection back and lets the next batch in
}

void pg_batch::roll_back() noexcept {
    tx_.reset();  // rolls back unless committed
    conn_.reset();
    after_commit_.clear();
    lost_ = nullptr;
    if (hold_.owns_lock()) {
        hold_.unlock();
    }
    hold_ = {};
}

}  // namespace storefront::storage::detail
