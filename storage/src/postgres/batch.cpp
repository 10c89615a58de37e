// pg_batch: joining a thread's write_batch with a borrowed connection and its transaction, and the commit
// (with the batch's notifications, then the journal records) or roll-back of it.

#include "postgres/batch.hpp"

#include <memory>
#include <utility>

namespace storefront::storage::detail {

pg_batch* pg_batch::of_this_thread(pg_pool& pool) {
    auto* batch = write_batch::open_on_this_thread();
    if (batch == nullptr) {
        return nullptr;
    }
    if (auto* joined = dynamic_cast<pg_batch*>(batch->joined());
        joined != nullptr && &joined->pool_ == &pool) {
        return joined;
    }
    if (batch->taken()) {
        return nullptr;
    }
    auto share = std::make_unique<pg_batch>(pool);  // borrowed and begun before joining
    auto* raw = share.get();
    return batch->adopt(std::move(share)) ? raw : nullptr;
}

pg_batch::pg_batch(pg_pool& pool) : pool_(pool), conn_(pool.borrow()) {
    tx_.emplace(**conn_);
}

void pg_batch::check_not_lost() const {
    if (lost_) {
        std::rethrow_exception(lost_);
    }
}

void pg_batch::notify_at_commit(const std::string& channel, std::string payload) {
    channels_.push_back(channel);
    payloads_.push_back(std::move(payload));
}

void pg_batch::commit() {
    check_not_lost();
    if (!payloads_.empty()) {
        (void)connection().exec(
            "SELECT pg_notify(c, p) FROM unnest($1::text[], $2::text[]) AS n(c, p)",
            pg_params().add(format_array(channels_)).add(format_array(payloads_))
        );
    }
    tx_->commit();
    for (auto& work : after_commit_) {
        work();
    }
    roll_back();  // nothing left to roll back: gives the connection back
}

void pg_batch::roll_back() noexcept {
    tx_.reset();  // rolls back unless committed
    conn_.reset();
    after_commit_.clear();
    channels_.clear();
    payloads_.clear();
}

}  // namespace storefront::storage::detail
