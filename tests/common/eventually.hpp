#pragma once
// Polling for what happens on another thread or process (a notification, a journal, a listener): true as
// soon as `done()` holds, false when it still does not after `limit`.

#include <chrono>
#include <thread>

namespace storefront::test {

template <class Predicate>
bool eventually(Predicate&& done, std::chrono::milliseconds limit) {
    const auto deadline = std::chrono::steady_clock::now() + limit;
    while (std::chrono::steady_clock::now() < deadline) {
        if (done()) {
            return true;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    return done();
}

}  // namespace storefront::test
