#pragma once
// The in-memory adapters, one per port (each class lives in its own .cpp): data in maps behind a
// reader/writer lock, gone with the process. Each make_* takes the store's whole initial content.

#include <cstddef>
#include <memory>
#include <vector>

#include "core/errc.hpp"
#include "core/model.hpp"
#include "core/pet_model.hpp"
#include "core/shop_model.hpp"
#include "storage/catalogue_store.hpp"
#include "storage/file_store.hpp"
#include "storage/location_store.hpp"
#include "storage/pet_store.hpp"
#include "storage/sandbox_store.hpp"
#include "storage/session_store.hpp"
#include "storage/shop_store.hpp"
#include "storage/user_store.hpp"

namespace storefront::storage {

namespace detail {

// The stock of the memory catalogue, as the memory shop store takes and returns it (on the durable backends
// stock is a column the shop's transactions change in SQL). memory_catalogue_store implements it.
class memory_stock {
  public:
    virtual ~memory_stock() = default;
    // The products of `lines`, all at once: errc::not_found for a product that is gone, errc::out_of_stock
    // when one has less than its line (`shortage` says which and what is left; nothing taken). With `take`,
    // every line's quantity is taken from its stock; without, it is only checked.
    [[nodiscard]] virtual core::result<std::vector<core::product>> take_stock(
        const std::vector<core::cart_line>& lines, bool take, core::stock_shortage* shortage
    ) = 0;
    // Returns the quantities of `lines` to their products' stock (cancel, expiry).
    virtual void give_back_stock(const std::vector<core::cart_line>& lines) = 0;
};

}  // namespace detail

// Throws std::invalid_argument on duplicate ids or slugs, or a product whose category is not in `categories`.
[[nodiscard]] std::unique_ptr<catalogue_store> make_memory_catalogue_store(
    std::vector<core::category> categories, std::vector<core::product> products
);
// Users with their password hashes; throws std::invalid_argument for an invalid or duplicate e-mail or id.
[[nodiscard]] std::unique_ptr<user_store> make_memory_user_store(std::vector<core::user_credentials> users);
[[nodiscard]] std::unique_ptr<session_store> make_memory_session_store();
// Uploads within `max_bytes` in total.
[[nodiscard]] std::unique_ptr<file_store> make_memory_file_store(std::size_t max_bytes);
// Throws std::invalid_argument on a duplicate id, a coordinate out of range, or more locations than the
// index can address.
[[nodiscard]] std::unique_ptr<location_store> make_memory_location_store(std::vector<core::location> locations
);

// The pet store surface; each throws std::invalid_argument for a non-positive or duplicate id (username).
[[nodiscard]] std::unique_ptr<pet_store> make_memory_pet_store(std::vector<core::pet> pets);
[[nodiscard]] std::unique_ptr<order_store> make_memory_order_store(std::vector<core::pet_order> orders);
[[nodiscard]] std::unique_ptr<pet_user_store> make_memory_pet_user_store(
    std::vector<core::pet_user_credentials> users
);
// Images within `max_bytes` in total.
[[nodiscard]] std::unique_ptr<pet_image_store> make_memory_pet_image_store(std::size_t max_bytes);

// The shop of one data set; its stock is `stock`'s (the memory catalogue store of the same data set, which
// must outlive it).
[[nodiscard]] std::unique_ptr<shop_store> make_memory_shop_store(detail::memory_stock& stock);

// The registry of sandboxes in this process; config_for answers `base` (the caller keeps each sandbox's
// memory stores alive).
[[nodiscard]] std::unique_ptr<sandbox_store> make_memory_sandbox_store(storage_config base);

}  // namespace storefront::storage
