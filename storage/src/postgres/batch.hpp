#pragma once
// The share of a storage::write_batch that writes to one PostgreSQL database and schema (one pg_pool): the
// connection the batch's first write borrowed, its transaction, the notifications and journal records that
// wait for its commit. Writes of the batch run on that connection, each inside its own savepoint, and commit
// together: one commit (one WAL flush, one hold of PostgreSQL's NOTIFY lock) for every write the writer
// thread took at once. Each batch has its own: writer threads run batches in parallel, one connection each,
// so PostgreSQL's parsing and index work spreads over its backends.

#include <exception>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "postgres/connection.hpp"
#include "postgres/pool.hpp"
#include "storage/write_batch.hpp"

namespace storefront::storage::detail {

class pg_batch final : public write_batch::member {
  public:
    // The share of this thread's batch writing to `pool`, which joins the batch on its first write
    // (borrowing a connection and beginning its transaction); nullptr when no batch is open on this thread or
    // another database holds it (the write then commits by itself). Throws storage_unavailable when it
    // cannot begin (the batch is then not joined, and the next write tries again).
    [[nodiscard]] static pg_batch* of_this_thread(pg_pool& pool);

    explicit pg_batch(pg_pool& pool);
    ~pg_batch() override { roll_back(); }
    pg_batch(const pg_batch&) = delete;
    pg_batch& operator=(const pg_batch&) = delete;

    [[nodiscard]] pg_connection& connection() { return **conn_; }
    // Throws the failure that lost this batch's transaction, if one did (no later write may run in it).
    void check_not_lost() const;
    // After a statement of the batch failed past its savepoint: the transaction cannot commit.
    void lost(std::exception_ptr why) { lost_ = std::move(why); }
    // pg_notify(channel, payload) as part of the commit (all of the batch's in one statement).
    void notify_at_commit(const std::string& channel, std::string payload);
    // The name of the next write's savepoint: w1, w2, … (one per write of the batch).
    [[nodiscard]] std::string next_savepoint() { return "w" + std::to_string(++savepoints_); }
    // Runs `work` after the batch commits (never if it fails).
    void after_commit(std::function<void()> work) { after_commit_.push_back(std::move(work)); }

    // write_batch::member
    void commit() override;
    void roll_back() noexcept override;

  private:
    pg_pool& pool_;
    std::optional<pg_pool::lease> conn_;
    std::optional<pg_transaction> tx_;
    std::exception_ptr lost_;
    unsigned savepoints_ = 0;
    std::vector<std::string> channels_;  // with payloads_: the notifications, in order
    std::vector<std::string> payloads_;
    std::vector<std::function<void()>> after_commit_;
};

}  // namespace storefront::storage::detail
