// Wires the stores, token service, password worker and response caches together at start-up.

#include "server/app_services.hpp"

#include <limits>

#include "server/json_mapping.hpp"
#include "storage/factory.hpp"

namespace storefront::server {

namespace {

template <class T>
std::vector<std::string> serialise_each(const std::vector<T>& items) {
    std::vector<std::string> out;
    out.reserve(items.size());
    for (const auto& item : items) {
        out.push_back(to_json(item));
    }
    return out;
}

core::page_request everything() {
    return {0, std::numeric_limits<std::size_t>::max() / 2};
}

}  // namespace

app_services::app_services(const server_config& config)
    : catalogue_(storage::make_catalogue_store(config.storage)),
      users_(storage::make_user_store(config.storage)),
      locations_(storage::make_location_store(config.storage)),
      tokens_(config.tokens),
      passwords_(config.limits.hash_threads, config.limits.hash_queue),
      product_json_(
          [this] { return catalogue_->revision(); },
          [this] { return serialise_each(catalogue_->list_products(everything())); }
      ),
      category_json_(
          [this] { return catalogue_->revision(); },
          [this] { return serialise_each(catalogue_->list_categories()); }
      ),
      user_json_(
          [this] { return users_->revision(); },
          [this] { return serialise_each(users_->list_users(everything())); }
      ) {
    // Warm the caches so the first requests do not pay for serialisation.
    (void)product_json_.current();
    (void)category_json_.current();
    (void)user_json_.current();
}

app_services::~app_services() = default;

}  // namespace storefront::server
