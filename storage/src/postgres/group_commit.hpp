#pragma once
// Group commit for one PostgreSQL aggregate (common/commit_queue.hpp): a batch of queued writes runs in one
// transaction on one pooled connection, each in its own savepoint, and ends with one NOTIFY naming every
// row the batch changed and one commit. A transaction that NOTIFYs holds PostgreSQL's notification-queue
// lock from pre-commit until its commit record is flushed, so NOTIFYing writers on separate connections
// never share a flush (bench/RESULTS.md, "Group commit"); in one batch they share it.

#include <functional>
#include <optional>
#include <vector>

#include "common/commit_queue.hpp"
#include "core/row_changes.hpp"
#include "postgres/pool.hpp"

namespace storefront::storage::detail {

class pg_group_commit final : public commit_queue<pg_connection> {
  public:
    // What each change named: a row, or nullopt for rows nobody names.
    using named_rows = std::vector<std::optional<core::row_change>>;

    struct hooks {
        std::function<pg_pool::lease()> connection;  // a connection with schema and seed ready
        std::function<void(pg_connection&, const named_rows&)>
            announce;                                   // the NOTIFY, inside the transaction
        std::function<void(const named_rows&)> record;  // after the commit, before any writer returns
    };

    explicit pg_group_commit(hooks h) : hooks_(std::move(h)) {}

    // From inside a change that is kept: the row it changed. Only the batch's leader runs changes, so
    // this needs no lock.
    void name(std::optional<core::row_change> row) { named_.push_back(row); }

  private:
    void commit_batch(batch_taker& take) override;
    void run_in_savepoint(pg_connection& conn, pending& p);

    hooks hooks_;
    named_rows named_;  // the running batch's
};

}  // namespace storefront::storage::detail
