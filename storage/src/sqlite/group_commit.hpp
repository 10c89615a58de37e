#pragma once
// Group commit for the one write connection of a SQLite file (common/commit_queue.hpp): a batch of queued
// changes runs in one IMMEDIATE transaction, each in its own savepoint, and commits once, so it pays one
// fsync instead of one per write.

#include <mutex>

#include "common/commit_queue.hpp"
#include "sqlite/connection.hpp"

namespace storefront::storage::detail {

class group_commit final : public commit_queue<sqlite_connection> {
  public:
    // Batches on `db`, taking `write_mutex` around each batch so that write_lease holders (seed, reset)
    // never interleave with one.
    group_commit(sqlite_connection& db, std::mutex& write_mutex) : db_(db), write_mutex_(write_mutex) {}

  private:
    void commit_batch(batch_taker& take) override;
    void run_in_savepoint(pending& p);

    sqlite_connection& db_;
    std::mutex& write_mutex_;
};

}  // namespace storefront::storage::detail
