#pragma once
// Where this instance is in its life, as /readyz and the sessions see it: started (listeners open, data
// loaded) and draining (SIGTERM came: not ready any more, keep-alive connections close). Written by main's
// thread, read by every I/O thread, so both are atomics.

#include <atomic>

namespace storefront::server {

class serving_state {
  public:
    // Listeners are open and the data is loaded: /readyz may answer 200.
    void mark_started() noexcept { started_.store(true, std::memory_order_release); }
    // From now on /readyz answers 503 "draining" and each connection closes after its next response.
    void begin_drain() noexcept { draining_.store(true, std::memory_order_release); }

    [[nodiscard]] bool started() const noexcept { return started_.load(std::memory_order_acquire); }
    [[nodiscard]] bool draining() const noexcept { return draining_.load(std::memory_order_acquire); }

  private:
    std::atomic<bool> started_{false};
    std::atomic<bool> draining_{false};
};

}  // namespace storefront::server
