// event_append_queue: the change feed's appends through the leader/follower queue (common/batching_queue.hpp)
// that also batches a SQLite file's writes (sqlite/group_commit.cpp).

#include "postgres/event_append_queue.hpp"

namespace storefront::storage::detail {

void event_append_queue::run(queued_append& a) {
    // Nothing of a failed batch committed: each appender gets the failure (no id of it is ever visible).
    queue_.run(a, [this](const auto& take) { write_(take()); });
}

}  // namespace storefront::storage::detail
