#pragma once
// A store's own tables, made once per process: the first connection it borrows runs `make` in a
// transaction (which takes the advisory lock that keeps instances starting at once from colliding in
// CREATE TABLE IF NOT EXISTS); later borrows go straight to the pool. Safe from several threads.

#include <atomic>
#include <mutex>

#include "postgres/pool.hpp"

namespace storefront::storage::detail {

class tables_once {
  public:
    // A connection of `pool` to a database that has the tables (`make(pg_connection&)` made them).
    template <class Make>
    [[nodiscard]] pg_pool::lease connection(pg_pool& pool, Make make) {
        auto db = pool.borrow();
        if (!ready_.load(std::memory_order_acquire)) {
            std::lock_guard lock(mutex_);
            if (!ready_.load(std::memory_order_relaxed)) {
                pg_transaction tx(*db);
                make(*db);
                tx.commit();
                ready_.store(true, std::memory_order_release);
            }
        }
        return db;
    }

  private:
    std::mutex mutex_;
    std::atomic<bool> ready_{false};
};

}  // namespace storefront::storage::detail
