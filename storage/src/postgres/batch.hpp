#pragma once
// The share of a storage::write_batch that writes to one PostgreSQL database and schema (one pg_pool): the
// connection the batch's first write borrowed, its transaction, and the journal records that wait for its
// commit. Writes of the batch run on that connection, each inside its own savepoint, and commit together:
// one commit (one WAL flush, one NOTIFY queue lock) for every write the writer thread took at once.

#include <exception>
#include <functional>
#include <mutex>
#include <optional>
#include <vector>

#include "postgres/connection.hpp"
#include "postgres/pool.hpp"
#include "storage/write_batch.hpp"

namespace storefront::storage::detail {

class pg_batch final : public write_batch::member {
  public:
    explicit pg_batch(pg_pool& pool) : pool_(pool) {}
    ~pg_batch() override { roll_back(); }
    pg_batch(const pg_batch&) = delete;
    pg_batch& operator=(const pg_batch&) = delete;

    // The connection of this thread's batch, which this database joins (borrowing a connection and
    // beginning its transaction) on its first write; nullptr when no batch is open on this thread or another
    // database holds it (the write then commits by itself). Throws storage_unavailable when it cannot begin.
    [[nodiscard]] pg_connection* joined();
    // Throws the failure that lost this batch's transaction, if one did (no later write may run in it).
    void check_not_lost() const;
    // After a statement of the batch failed past its savepoint: the transaction cannot commit.
    void lost(std::exception_ptr why) { lost_ = std::move(why); }
    // Runs `work` after this thread's batch commits here (never if it fails); at once outside a batch.
    void after_commit(std::function<void()> work);

    // write_batch::member
    void commit() override;
    void roll_back() noexcept override;

  private:
    [[nodiscard]] bool held_by_this_thread() const;

    pg_pool& pool_;
    std::mutex held_;  // one batch at a time, whichever writer thread runs it
    std::unique_lock<std::mutex> hold_;
    std::optional<pg_pool::lease> conn_;
    std::optional<pg_transaction> tx_;
    std::exception_ptr lost_;
    std::vector<std::function<void()>> after_commit_;
};

}  // namespace storefront::storage::detail
