#pragma once
// Ports for the pet store surface (/api/v3): pets, orders, pet-store users and uploaded images.
// Adapters are safe to call from several I/O threads at once.

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/errc.hpp"
#include "core/pet_model.hpp"
#include "storage/store_bases.hpp"

namespace storefront::storage {

class pet_store : public counted_store {
  public:
    // errc::not_found when there is no pet `id`.
    [[nodiscard]] virtual core::result<core::pet> find(std::int64_t id) const = 0;

    // Pets whose status is one of `statuses`, in id order.
    [[nodiscard]] virtual std::vector<core::pet> find_by_status(const std::vector<core::pet_status>& statuses
    ) const = 0;

    // Pets with at least one tag named as one of `tag_names`, in id order.
    [[nodiscard]] virtual std::vector<core::pet> find_by_tags(const std::vector<std::string>& tag_names
    ) const = 0;

    // Stores `pet` and returns it as stored: id 0 gets the next free id; an existing id is replaced
    // (as the public petstore does).
    [[nodiscard]] virtual core::pet add(core::pet pet) = 0;

    // Replaces the pet with `pet.id`; errc::not_found (and nothing stored) when there is none.
    [[nodiscard]] virtual core::result<core::pet> replace(const core::pet& pet) = 0;

    // Sets the name and/or status of pet `id` in one step; errc::not_found when there is none.
    [[nodiscard]] virtual core::result<core::pet> update_name_status(
        std::int64_t id, std::optional<std::string> name, std::optional<core::pet_status> status
    ) = 0;

    // Appends `url` to the photoUrls of pet `id`; errc::not_found when there is none.
    [[nodiscard]] virtual core::result<core::pet> add_photo_url(std::int64_t id, std::string url) = 0;

    // errc::not_found when there was no such pet.
    [[nodiscard]] virtual core::result<void> remove(std::int64_t id) = 0;
};

class order_store : public counted_store {
  public:
    // errc::not_found when there is no order `id`.
    [[nodiscard]] virtual core::result<core::pet_order> find(std::int64_t id) const = 0;

    // Stores `order` and returns it as stored: id 0 gets the next free id; an existing id is replaced.
    [[nodiscard]] virtual core::pet_order add(core::pet_order order) = 0;

    // errc::not_found when there was no such order.
    [[nodiscard]] virtual core::result<void> remove(std::int64_t id) = 0;

    // The sum of order quantities per order status; every status is present (0 when it has no orders).
    [[nodiscard]] virtual std::map<core::order_status, std::int64_t> inventory() const = 0;
};

class pet_user_store : public counted_store {
  public:
    // Exact, case-sensitive username; errc::not_found when there is no such user.
    [[nodiscard]] virtual core::result<core::pet_user_credentials> find(std::string_view username) const = 0;

    // Stores `user` under its username and returns the profile as stored: id 0 gets the next free id;
    // an existing username is replaced (as the public petstore does).
    [[nodiscard]] virtual core::pet_user add(core::pet_user_credentials user) = 0;

    // Replaces the user `username` with `user` (which may carry a new username).
    // errc::not_found when there is no such user; errc::conflict when the new username belongs to another.
    [[nodiscard]] virtual core::result<core::pet_user> replace(
        std::string_view username, core::pet_user_credentials user
    ) = 0;

    // errc::not_found when there was no such user.
    [[nodiscard]] virtual core::result<void> remove(std::string_view username) = 0;
};

class pet_image_store {
  public:
    virtual ~pet_image_store() = default;

    // Keeps `image` for pet `pet_id` and returns its id (unique per store).
    // errc::storage_full when the store's byte budget has no room for it.
    [[nodiscard]] virtual core::result<std::int64_t> add(std::int64_t pet_id, core::pet_image image) = 0;

    // The image, shared (never copied) with concurrent readers; errc::not_found when unknown or of another
    // pet.
    [[nodiscard]] virtual core::result<std::shared_ptr<const core::pet_image>> find(
        std::int64_t pet_id, std::int64_t image_id
    ) const = 0;

    // Drops every image of pet `pet_id` (when the pet is deleted).
    virtual void remove_for_pet(std::int64_t pet_id) = 0;
};

}  // namespace storefront::storage
