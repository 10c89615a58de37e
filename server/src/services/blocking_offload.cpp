// The bounded offload pool's lifetime; the call path is a template in the header.

#include "server/services/blocking_offload.hpp"

#include "server/telemetry/thread_name.hpp"

namespace storefront::server {

blocking_offload::blocking_offload(std::size_t threads, std::size_t max_queued) : max_queued_(max_queued) {
    if (threads > 0) {
        pool_.emplace(threads);
    }
}

blocking_offload::~blocking_offload() {
    stop();
}

void blocking_offload::name_pool_thread() {
    thread_local bool named = false;
    if (!named) {
        name_this_thread("sf-storage");
        named = true;
    }
}

void blocking_offload::stop() {
    if (pool_) {
        pool_->join();
    }
}

}  // namespace storefront::server
