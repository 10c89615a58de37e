#pragma once
// Group commit for the change feed's appends (issue 46): every append was its own transaction with a NOTIFY,
// and PostgreSQL holds its one NOTIFY lock through each such commit's WAL flush, so the appends of all
// writers followed one another, one flush each. Here concurrent appenders queue their event, the first
// waiting thread leads and writes every queued event (up to max_batch) in one transaction, which the log
// commits once (one flush, one NOTIFY per data set); each appender returns once its batch committed.

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string_view>
#include <vector>

#include "common/batching_queue.hpp"

namespace storefront::storage::detail {

// One append waiting for its batch: the caller's views stay valid until run() returns.
struct queued_append : batch_waiter {
    std::string_view data_set;
    std::string_view type;
    std::string_view data;
    std::optional<std::int64_t> owner;
    std::int64_t at_ms = 0;
    std::uint64_t id = 0;  // the id its data set gave it (set by the batch)
};

class event_append_queue {
  public:
    // Writes a batch in one transaction and commits it, setting each append's id; throws when it could not
    // commit (then none of the batch stands).
    using writer = std::function<void(const std::vector<queued_append*>& batch)>;

    explicit event_append_queue(writer write) : write_(std::move(write)) {}

    // Appends `a` in the next batch and returns once that batch has committed; throws the batch's failure.
    // With an empty queue it runs at once: there is no timer.
    void run(queued_append& a);

    // Batches committed or failed so far (for tests).
    [[nodiscard]] std::uint64_t batches() const { return queue_.batches(); }

    // At most this many events share one transaction, so one batch holds the counters' row locks briefly.
    static constexpr std::size_t max_batch = 256;

  private:
    writer write_;
    batching_queue<queued_append> queue_{max_batch};
};

}  // namespace storefront::storage::detail
