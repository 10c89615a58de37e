// memory_pet_store: an id-ordered map; lookups take a shared lock, writes an exclusive one, and every
// read-modify-write (name/status, photo URL) happens under one lock so concurrent updates do not race.

#include "storage/pet_store.hpp"

#include <algorithm>

#include "memory/id_rows.hpp"
#include "memory/stores.hpp"

namespace storefront::storage {

namespace {

class memory_pet_store final : public detail::id_rows_port<pet_store, core::pet> {
  public:
    using id_rows_port::id_rows_port;

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

    core::result<core::pet> replace(const core::pet& pet) override {
        return rows_.change(pet.id, [&](core::pet& stored) { stored = pet; });
    }

    core::result<core::pet> update_name_status(
        std::int64_t id, std::optional<std::string> name, std::optional<core::pet_status> status
    ) override {
        return rows_.change(id, [&](core::pet& p) {
            if (name) {
                p.name = std::move(*name);
            }
            if (status) {
                p.status = status;
            }
        });
    }

    core::result<core::pet> add_photo_url(std::int64_t id, std::string url) override {
        return rows_.change(id, [&](core::pet& p) { p.photo_urls.push_back(std::move(url)); });
    }

  private:
    template <class Keep>
    std::vector<core::pet> select(Keep&& keep) const {
        std::vector<core::pet> out;
        rows_.for_each([&](const core::pet& p) {
            if (keep(p)) {
                out.push_back(p);
            }
        });
        return out;
    }
};

}  // namespace

std::unique_ptr<pet_store> make_memory_pet_store(std::vector<core::pet> pets) {
    return std::make_unique<memory_pet_store>(std::move(pets), "invalid or duplicate pet id ");
}

}  // namespace storefront::storage
