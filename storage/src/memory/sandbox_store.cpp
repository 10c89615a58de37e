// memory_sandbox_store: the registry of sandboxes as a map in this process (their stores are the caller's).

#include <algorithm>
#include <atomic>
#include <map>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "memory/stores.hpp"

namespace storefront::storage {

namespace {

class memory_sandbox_store final : public sandbox_store {
  public:
    explicit memory_sandbox_store(storage_config base) : base_(std::move(base)) {}

    core::result<std::optional<sandbox_record>> find(std::string_view id) override {
        std::lock_guard lock(mutex_);
        const auto it = records_.find(id);
        if (it == records_.end()) {
            return std::optional<sandbox_record>();
        }
        return std::optional<sandbox_record>(it->second);
    }

    core::result<sandbox_record> create(
        std::string_view id, std::size_t max_live, std::chrono::system_clock::time_point now
    ) override {
        std::lock_guard lock(mutex_);
        if (const auto it = records_.find(id); it != records_.end()) {
            return it->second;
        }
        if (records_.size() >= max_live) {
            return core::errc::storage_full;
        }
        // A counter, never reused: a sandbox created again after a remove is told apart from its old life.
        sandbox_record record{std::string(id), ++last_generation_, now};
        records_.emplace(record.id, record);
        revision_.fetch_add(1, std::memory_order_acq_rel);
        return record;
    }

    core::result<void> touch(std::string_view id, std::chrono::system_clock::time_point now) override {
        std::lock_guard lock(mutex_);
        if (const auto it = records_.find(id); it != records_.end()) {
            it->second.last_used = now;
        }
        return {};
    }

    core::result<bool> remove(std::string_view id) override {
        std::lock_guard lock(mutex_);
        const auto it = records_.find(id);
        if (it == records_.end()) {
            return false;
        }
        records_.erase(it);
        revision_.fetch_add(1, std::memory_order_acq_rel);
        return true;
    }

    core::result<std::vector<std::string>> idle_since(
        std::chrono::system_clock::time_point cutoff, std::size_t limit
    ) override {
        std::vector<const sandbox_record*> idle;
        std::lock_guard lock(mutex_);
        for (const auto& [id, record] : records_) {
            if (record.last_used < cutoff) {
                idle.push_back(&record);
            }
        }
        // The longest idle first, as the durable backends answer.
        std::sort(idle.begin(), idle.end(), [](const auto* a, const auto* b) {
            return a->last_used < b->last_used;
        });
        std::vector<std::string> ids;
        for (std::size_t i = 0; i < idle.size() && i < limit; ++i) {
            ids.push_back(idle[i]->id);
        }
        return ids;
    }

    core::result<std::size_t> count() override {
        std::lock_guard lock(mutex_);
        return records_.size();
    }

    std::uint64_t revision() const override { return revision_.load(std::memory_order_acquire); }

    // Every sandbox's memory stores are built from the same config: what isolates them is that the caller
    // keeps one set of store objects per sandbox.
    storage_config config_for(std::string_view) const override { return base_; }

    bool durable() const override { return false; }

  private:
    const storage_config base_;
    std::mutex mutex_;
    std::map<std::string, sandbox_record, std::less<>> records_;
    std::int64_t last_generation_ = 0;
    std::atomic<std::uint64_t> revision_{1};
};

}  // namespace

std::unique_ptr<sandbox_store> make_memory_sandbox_store(storage_config base) {
    return std::make_unique<memory_sandbox_store>(std::move(base));
}

}  // namespace storefront::storage
