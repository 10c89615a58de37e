// memory_pet_store: an id-ordered map; lookups take a shared lock, writes an exclusive one, and every
// read-modify-write (name/status, photo URL) happens under one lock so concurrent updates do not race.

#include "memory/pet_store.hpp"

#include <algorithm>
#include <limits>
#include <mutex>
#include <stdexcept>

#include "common/found.hpp"
#include "common/next_id.hpp"

namespace storefront::storage {

memory_pet_store::memory_pet_store(std::vector<core::pet> pets) {
    for (auto& p : pets) {
        const std::int64_t id = p.id;
        if (id <= 0 || !pets_.emplace(id, std::move(p)).second) {
            throw std::invalid_argument("invalid or duplicate pet id " + std::to_string(id));
        }
    }
}

template <class Keep>
std::vector<core::pet> memory_pet_store::select(Keep&& keep) const {
    std::shared_lock lock(mutex_);
    std::vector<core::pet> out;
    for (const auto& [id, p] : pets_) {
        if (keep(p)) {
            out.push_back(p);
        }
    }
    return out;
}

core::result<core::pet> memory_pet_store::find(std::int64_t id) const {
    std::shared_lock lock(mutex_);
    return detail::find_in(pets_, id);
}

std::vector<core::pet> memory_pet_store::find_by_status(const std::vector<core::pet_status>& statuses) const {
    return select([&](const core::pet& p) {
        return p.status && std::find(statuses.begin(), statuses.end(), *p.status) != statuses.end();
    });
}

std::vector<core::pet> memory_pet_store::find_by_tags(const std::vector<std::string>& tag_names) const {
    return select([&](const core::pet& p) {
        return std::any_of(p.tags.begin(), p.tags.end(), [&](const core::pet_tag& t) {
            return t.name && std::find(tag_names.begin(), tag_names.end(), *t.name) != tag_names.end();
        });
    });
}

core::pet memory_pet_store::add(core::pet pet) {
    std::unique_lock lock(mutex_);
    if (pet.id == 0) {
        pet.id = pets_.empty() ? 1 : next_id(pets_.rbegin()->first);
    }
    pets_.insert_or_assign(pet.id, pet);
    return pet;
}

core::result<core::pet> memory_pet_store::replace(const core::pet& pet) {
    std::unique_lock lock(mutex_);
    const auto it = pets_.find(pet.id);
    if (it == pets_.end()) {
        return core::errc::not_found;
    }
    it->second = pet;
    return pet;
}

core::result<core::pet> memory_pet_store::update_name_status(
    std::int64_t id, std::optional<std::string> name, std::optional<core::pet_status> status
) {
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

core::result<core::pet> memory_pet_store::add_photo_url(std::int64_t id, std::string url) {
    std::unique_lock lock(mutex_);
    const auto it = pets_.find(id);
    if (it == pets_.end()) {
        return core::errc::not_found;
    }
    it->second.photo_urls.push_back(std::move(url));
    return it->second;
}

core::result<void> memory_pet_store::remove(std::int64_t id) {
    std::unique_lock lock(mutex_);
    return detail::found_any(pets_.erase(id) > 0);
}

}  // namespace storefront::storage
