// Builds the stores, token services, password worker and response caches at start-up, and hands each
// surface its services struct and the router its mounted tables.

#include "server/composition_root.hpp"

#include <array>
#include <limits>
#include <stdexcept>

#include <openssl/rand.h>

#include "server/api/docs/routes.hpp"
#include "server/api/petstore/routes.hpp"
#include "server/api/store/json_mapping.hpp"
#include "server/api/store/routes.hpp"
#include "server/ops/health_routes.hpp"
#include "server/ops/metrics.hpp"
#include "server/ops/routes.hpp"
#include "storage/factory.hpp"

namespace storefront::server {

namespace {

// Each item's JSON as the lists and single reads write it (users with the --compat password mask, when
// any), with its id.
template <class T, class Write>
serialised_items serialise_each(const std::vector<T>& items, Write write) {
    serialised_items out;
    out.ids.reserve(items.size());
    out.json.reserve(items.size());
    for (const auto& item : items) {
        out.ids.push_back(item.id);
        out.json.push_back(write(item));
    }
    return out;
}

core::page_request everything() {
    return {0, std::numeric_limits<std::size_t>::max() / 2};
}

// The configured pet token settings; an empty secret (a config not built by parse_config) gets a random
// per-process one, as the flags do when --pet-token-secret is unset.
core::pet_token_settings pet_token_settings_of(const server_config& config) {
    core::pet_token_settings settings = config.pet.tokens;
    if (settings.secret.empty()) {
        std::array<unsigned char, 32> bytes{};
        if (RAND_bytes(bytes.data(), static_cast<int>(bytes.size())) != 1) {
            throw std::runtime_error("cannot generate a random pet token secret");
        }
        settings.secret.assign(reinterpret_cast<const char*>(bytes.data()), bytes.size());
    }
    return settings;
}

// --public-url, or the listen address when none is given (a wildcard address is reached on loopback).
std::string public_url_of(const server_config& config, std::uint16_t port) {
    std::string url = config.public_url;
    if (url.empty()) {
        const bool wildcard = config.address == "0.0.0.0" || config.address == "::";
        const std::string host = wildcard ? "127.0.0.1" : config.address;
        const bool ipv6 = host.find(':') != std::string::npos;
        url = "http://" + (ipv6 ? "[" + host + "]" : host) + ":" + std::to_string(port);
    }
    while (!url.empty() && url.back() == '/') {
        url.pop_back();
    }
    return url;
}

}  // namespace

composition_root::composition_root(const server_config& config)
    : write_policy_(config.write_policy),
      address_(config.address),
      public_url_(public_url_of(config, config.port)),
      public_url_needs_port_(config.public_url.empty() && config.port == 0),
      catalogue_(storage::make_catalogue_store(config.storage)),
      users_(storage::make_user_store(config.storage)),
      locations_(storage::make_location_store(config.storage)),
      location_objects_(locations_->all()),
      files_(storage::make_file_store(config.storage, config.limits.upload_budget)),
      sessions_(storage::make_session_store(config.storage)),
      tokens_(config.tokens),
      passwords_(config.limits.hash_threads, config.limits.hash_queue),
      storage_calls_(
          storage::kind_of(config.storage.backend) == storage::backend_kind::memory
              ? 0
              : config.limits.storage_threads,
          config.limits.storage_queue
      ),
      product_json_(
          [this] { return catalogue_->revision(); },
          [this] {
              return serialise_each(catalogue_->list_products({}, everything()), [this](const auto& p) {
                  return to_json(p, public_url_);
              });
          }
      ),
      category_json_(
          [this] { return catalogue_->revision(); },
          [this] {
              return serialise_each(catalogue_->list_categories(), [this](const auto& c) {
                  return to_json(c, public_url_);
              });
          }
      ),
      user_json_(
          [this] { return users_->revision(); },
          [this] {
              return serialise_each(users_->list_users(everything()), [this](const auto& u) {
                  return to_json(u, public_url_, {}, store_services_.password_mask());
              });
          }
      ),
      pets_(storage::make_pet_store(config.storage)),
      orders_(storage::make_order_store(config.storage)),
      pet_users_(storage::make_pet_user_store(config.storage)),
      pet_images_(storage::make_pet_image_store(config.storage, config.pet.image_budget)),
      pet_tokens_(pet_token_settings_of(config)),
      pet_keys_(config.pet.api_keys, config.pet.clients),
      // A check result serves every probe for half a second; a probe waits at most 1.5 s for a running one.
      readiness_(std::chrono::milliseconds(500), std::chrono::milliseconds(1500)),
      store_services_({
          .catalogue = *catalogue_,
          .users = *users_,
          .locations = *locations_,
          .location_objects = location_objects_,
          .files = *files_,
          .sessions = *sessions_,
          .images = images_,
          .tokens = tokens_,
          .passwords = passwords_,
          .storage = storage_calls_,
          .product_json = product_json_,
          .category_json = category_json_,
          .user_json = user_json_,
          .write_policy = write_policy_,
          .public_url = public_url_,
          .upload_limit = config.limits.upload_limit,
          .compat = config.compat,
          .sole_writer = storage::kind_of(config.storage.backend) != storage::backend_kind::postgresql,
      }),
      pet_services_({
          .pets = *pets_,
          .orders = *orders_,
          .pet_users = *pet_users_,
          .pet_images = *pet_images_,
          .pet_tokens = pet_tokens_,
          .pet_keys = pet_keys_,
          .passwords = passwords_,
          .storage = storage_calls_,
      }),
      ops_services_{
          .state = state_,
          .readiness = readiness_,
          .catalogue = *catalogue_,
          .storage = storage_calls_,
          .passwords = passwords_,
      },
      routes_({
          store_routes().mount(store_services_, config.compat),
          petstore_routes().mount(pet_services_),
          &docs_routes(),
          ops_routes().mount(ops_services_),
          health_routes().mount(ops_services_),
      }),
      routing_{
          .routes = routes_,
          .limits =
              {.form_body_limit = config.limits.form_body_limit,
               .body_limit = config.limits.body_limit,
               .upload_limit = config.limits.upload_limit},
          .access =
              {.tokens = tokens_,
               .users = *users_,
               .storage = storage_calls_,
               .write_policy = write_policy_,
               .pet_tokens = pet_tokens_,
               .pet_keys = pet_keys_},
          .log_probes = config.access_log_probes,
          .fault_injection = config.fault_injection,
      } {
    metrics().describe_routes(routes_);
    if (config.rate_limit) {
        rate_limiter_ = std::make_unique<rate_limiter>(*config.rate_limit);
        rate_limit_ = std::make_unique<rate_limit_gate>(*rate_limiter_);
    }
    // Warm the caches so the first requests do not pay for serialisation.
    (void)product_json_.current();
    (void)category_json_.current();
    (void)user_json_.current();
}

composition_root::~composition_root() = default;

listener_services composition_root::listener() {
    return {routing_, state_, [this](std::uint16_t port) { listening_on(port); }, rate_limit_.get()};
}

void composition_root::listening_on(std::uint16_t port) {
    if (!public_url_needs_port_) {
        return;
    }
    server_config listening;
    listening.address = address_;
    public_url_ = public_url_of(listening, port);
    public_url_needs_port_ = false;
    product_json_.reset();
    category_json_.reset();
    user_json_.reset();
}

}  // namespace storefront::server
