#pragma once
// A writer thread's batch of writes: while one is open on a thread, the writes that thread makes to a SQLite
// or PostgreSQL database share one transaction (each in its own savepoint) and return their answers at
// once; nothing of them is durable, or seen by readers and caches, until commit(). One thread can so answer
// many clients' writes with one commit, without a thread per waiting write (server/services/write_lane.hpp).
// Without an open batch every write commits by itself (through the database's group commit).

#include <memory>

namespace storefront::storage {

class write_batch {
  public:
    // A database's side of a batch: the transaction its first write in the batch opened.
    class member {
      public:
        virtual ~member() = default;
        // Commits the batch's transaction, then what waited on it (journal records); throws
        // storage_unavailable or the backend's error when it could not: then none of the batch's writes
        // stand.
        virtual void commit() = 0;
        // Undoes the batch's transaction (commit() not reached, or failed).
        virtual void roll_back() noexcept = 0;
    };

    // Opens a batch on this thread; throws std::logic_error when one is open already (batches do not nest).
    write_batch();
    // Rolls back what commit() did not commit.
    ~write_batch();
    write_batch(const write_batch&) = delete;
    write_batch& operator=(const write_batch&) = delete;

    // Makes every write of the batch durable and visible. Throws what the commit threw: then no write of
    // the batch stands. At most once.
    void commit();

    // For adapters: the batch open on this thread, or nullptr.
    [[nodiscard]] static write_batch* open_on_this_thread() noexcept;
    // For adapters: whether `m` holds this batch's transaction.
    [[nodiscard]] bool holds(const member& m) const noexcept { return member_ == &m; }
    // For adapters: whether a database holds this batch's transaction already.
    [[nodiscard]] bool taken() const noexcept { return member_ != nullptr || finished_; }
    // For adapters: `m` takes the batch's transaction, which it has begun. One database per batch: false
    // when another holds it (that database's write then commits by itself).
    [[nodiscard]] bool join(member& m) noexcept;
    // For adapters whose share of a batch lives as long as the batch (one per batch, not per database):
    // join(*m), the batch then owning `m`. False (and `m` dropped) when another database holds the batch.
    [[nodiscard]] bool adopt(std::unique_ptr<member> m) noexcept;
    // For adapters: the database that holds this batch's transaction, or nullptr.
    [[nodiscard]] member* joined() const noexcept { return member_; }

  private:
    std::unique_ptr<member> owned_;  // declared before member_: rolled back (by ~write_batch) before it goes
    member* member_ = nullptr;
    bool finished_ = false;
};

}  // namespace storefront::storage
