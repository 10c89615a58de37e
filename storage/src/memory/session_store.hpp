#pragma once
// In-memory session_store: families by id behind one mutex (each call is a few map operations).

#include <cstddef>
#include <cstdint>
#include <mutex>
#include <string>
#include <unordered_map>

#include "storage/session_store.hpp"

namespace storefront::storage {

class memory_session_store final : public session_store {
  public:
    static constexpr std::size_t max_families = 1'000'000;

    [[nodiscard]] core::result<void> start(
        std::string_view id, std::int64_t user_id, std::int64_t expires_at, std::int64_t now
    ) override;
    [[nodiscard]] core::result<std::int64_t> rotate(
        std::string_view id, std::int64_t generation, std::int64_t expires_at, std::int64_t now
    ) override;
    bool revoke(std::string_view id, std::int64_t user_id) override;

  private:
    struct family {
        std::int64_t user_id = 0;
        std::int64_t generation = 0;
        std::int64_t expires_at = 0;
    };
    void drop_expired(std::int64_t now);

    std::mutex mutex_;
    std::unordered_map<std::string, family> families_;
};

}  // namespace storefront::storage
