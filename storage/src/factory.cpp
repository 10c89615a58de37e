// The store factory: picks the adapter for storage_config::backend ("memory" only so far) and fills it
// with the seed catalogue, the seed users and the configured or generated locations.

#include "storage/factory.hpp"

#include <stdexcept>
#include <string>

#include "location_csv.hpp"
#include "location_generator.hpp"
#include "memory_catalogue_store.hpp"
#include "memory_location_store.hpp"
#include "memory_user_store.hpp"
#include "seed_catalogue.hpp"
#include "seed_users.hpp"

namespace storefront::storage {
namespace {

void require_known_backend(const storage_config& config) {
    if (config.backend != "memory") {
        throw std::invalid_argument("unknown storage backend: " + config.backend);
    }
}

}  // namespace

std::unique_ptr<catalogue_store> make_catalogue_store(const storage_config& config) {
    require_known_backend(config);
    return std::make_unique<memory_catalogue_store>(detail::seed_categories(), detail::seed_products());
}

std::unique_ptr<user_store> make_user_store(const storage_config& config) {
    require_known_backend(config);
    return std::make_unique<memory_user_store>(detail::seed_user_credentials());
}

std::unique_ptr<location_store> make_location_store(const storage_config& config) {
    require_known_backend(config);
    if (config.location_file) {
        return std::make_unique<memory_location_store>(detail::load_location_csv(*config.location_file));
    }
    return std::make_unique<memory_location_store>(
        detail::generate_locations(config.generated_locations, config.location_seed)
    );
}

}  // namespace storefront::storage
