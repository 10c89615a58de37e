// memory_pet_store: an id-ordered map; lookups take a shared lock, writes an exclusive one, and every
// read-modify-write (name/status, photo URL) happens under one lock so concurrent updates do not race.

#include "storage/pet_store.hpp"

#include <algorithm>
#include <limits>
#include <map>
#include <mutex>
#include <shared_mutex>
#include <stdexcept>

#include "common/found.hpp"
#include "common/next_id.hpp"
#include "memory/seed_map.hpp"
#include "memory/stores.hpp"

namespace storefront::storage {

namespace {

constexpr auto pet_id = [](const core::pet& p) { return p.id; };

class memory_pet_store final : public pet_store {
  public:
    // Throws std::invalid_argument for a non-positive or duplicate id.
    explicit memory_pet_store(std::vector<core::pet> pets)
        : pets_(detail::seed_map<decltype(pets_)>(
              std::move(pets), pet_id, pet_id, "invalid or duplicate pet id "
          )) {}

    core::result<core::pet> find(std::int64_t id) const override {
        std::shared_lock lock(mutex_);
        return detail::find_in(pets_, id);
    }

    std::vector<core::pet> find_by_status(const std::vector<core::pet_status>& statuses) const override {
        return select([&](const core::pet& p) {
            return p.status && std::find(statuses.begin(), statuses.end(), *p.status) != statuses.end();
        });
    }

    std::vector<core::pet> find_by_tags(const std::vector<std::string>& tag_names) const override {
        return select([&](const core::pet& p) {
            return std::any_of(p.tags.begin(), p.tags.end(), [&](const core::pet_tag& t) {
                return t.name && std::find(tag_names.begin(), tag_names.end(), *t.name) != tag_names.end();
            });
        });
    }

    core::pet add(core::pet pet) override {
        std::unique_lock lock(mutex_);
        if (pet.id == 0) {
            pet.id = pets_.empty() ? 1 : next_id(pets_.rbegin()->first);
        }
        pets_.insert_or_assign(pet.id, pet);
        return pet;
    }

    core::result<core::pet> replace(const core::pet& pet) override {
        std::unique_lock lock(mutex_);
        const auto it = pets_.find(pet.id);
        if (it == pets_.end()) {
            return core::errc::not_found;
        }
        it->second = pet;
        return pet;
    }

    core::result<core::pet> update_name_status(
        std::int64_t id, std::optional<std::string> name, std::optional<core::pet_status> status
    ) override {
        std::unique_lock lock(mutex_);
        const auto it = pets_.find(id);
        if (it == pets_.end()) {
            return core::errc::not_found;
        }
        if (name) {
            it->second.name = std::move(*name);
        }
        if (status) {
            it->second.status = status;
        }
        return it->second;
    }

    core::result<core::pet> add_photo_url(std::int64_t id, std::string url) override {
        std::unique_lock lock(mutex_);
        const auto it = pets_.find(id);
        if (it == pets_.end()) {
            return core::errc::not_found;
        }
        it->second.photo_urls.push_back(std::move(url));
        return it->second;
    }

    core::result<void> remove(std::int64_t id) override {
        std::unique_lock lock(mutex_);
        return detail::found_any(pets_.erase(id) > 0);
    }

    std::size_t count() const override {
        std::shared_lock lock(mutex_);
        return pets_.size();
    }

  private:
    template <class Keep>
    std::vector<core::pet> select(Keep&& keep) const {
        std::shared_lock lock(mutex_);
        std::vector<core::pet> out;
        for (const auto& [id, p] : pets_) {
            if (keep(p)) {
                out.push_back(p);
            }
        }
        return out;
    }

    mutable std::shared_mutex mutex_;
    std::map<std::int64_t, core::pet> pets_;
};

}  // namespace

std::unique_ptr<pet_store> make_memory_pet_store(std::vector<core::pet> pets) {
    return std::make_unique<memory_pet_store>(std::move(pets));
}

}  // namespace storefront::storage
