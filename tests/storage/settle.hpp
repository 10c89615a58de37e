#pragma once
// Waiting for a fresh store's revision to stop moving before a test takes it as a base: on PostgreSQL the
// listener starts (an unknown change) and the seed's notification arrives asynchronously; elsewhere it is
// settled at once.

#include <chrono>
#include <cstdint>
#include <thread>

namespace storefront::test {

template <class Store>
void settle(const Store& store) {
    using namespace std::chrono_literals;
    const auto deadline = std::chrono::steady_clock::now() + 5s;
    while (std::chrono::steady_clock::now() < deadline) {
        const std::uint64_t seen = store.revision();
        std::this_thread::sleep_for(150ms);
        if (store.revision() == seen && store.changes_since(seen)) {
            return;
        }
    }
}

}  // namespace storefront::test
