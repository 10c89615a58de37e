#pragma once
// What handlers work with: the route tables, the stores, the token service, the password worker and the
// response caches. Built once at start-up and shared by every I/O thread.

#include <memory>
#include <string>
#include <string_view>

#include "core/auth_tokens.hpp"
#include "core/pet_auth.hpp"
#include "server/app/blocking_offload.hpp"
#include "server/app/location_json.hpp"
#include "server/app/password_worker.hpp"
#include "server/app/pet_credentials.hpp"
#include "server/app/placeholder_images.hpp"
#include "server/app/response_cache.hpp"
#include "server/ops/readiness.hpp"
#include "server/ops/server_config.hpp"
#include "server/ops/serving_state.hpp"
#include "server/routing/router.hpp"
#include "storage/catalogue_store.hpp"
#include "storage/file_store.hpp"
#include "storage/location_store.hpp"
#include "storage/pet_store.hpp"
#include "storage/session_store.hpp"
#include "storage/user_store.hpp"

namespace storefront::server {

class app_services {
  public:
    explicit app_services(const server_config& config);
    ~app_services();

    const router& routes() const { return routes_; }
    const limits_config& limits() const { return limits_; }
    core::write_policy write_policy() const { return write_policy_; }
    // Where clients reach this service ("http://127.0.0.1:8080", no trailing slash): the base of image URLs.
    std::string_view public_url() const { return public_url_; }
    // Called by a listener once bound, before any request is served: a default public URL of a server
    // started with port 0 gets the port the kernel chose.
    void listening_on(std::uint16_t port);

    storage::catalogue_store& catalogue() { return *catalogue_; }
    storage::user_store& users() { return *users_; }
    storage::location_store& locations() { return *locations_; }
    // Every location's JSON, by the store's position (the location set never changes).
    const location_json& location_objects() const { return location_objects_; }
    storage::file_store& files() { return *files_; }
    storage::session_store& sessions() { return *sessions_; }
    placeholder_images& images() { return images_; }
    const core::auth_tokens& tokens() const { return tokens_; }
    password_worker& passwords() { return passwords_; }

    // Runs `call` (which uses the stores) where it may block: on the storage pool for SQLite and
    // PostgreSQL, inline for the memory backend. Throws offload_rejected when the pool's queue is full.
    template <class Call>
    boost::asio::awaitable<std::invoke_result_t<Call&>> storage(Call call) {
        return storage_calls_.run(std::move(call));
    }
    // A page of a cached list: served from memory; rebuilt through storage() when the store moved on.
    [[nodiscard]] boost::asio::awaitable<std::shared_ptr<const std::string>> cached_page(
        fragment_list& list, core::page_request page
    );
    [[nodiscard]] boost::asio::awaitable<std::shared_ptr<const std::string>> cached_all(fragment_list& list);
    [[nodiscard]] const blocking_offload& storage_calls() const { return storage_calls_; }
    fragment_list& product_json() { return product_json_; }
    fragment_list& category_json() { return category_json_; }
    fragment_list& user_json() { return user_json_; }

    // The pet store surface (/api/v3).
    storage::pet_store& pets() { return *pets_; }
    storage::order_store& orders() { return *orders_; }
    storage::pet_user_store& pet_users() { return *pet_users_; }
    storage::pet_image_store& pet_images() { return *pet_images_; }
    const core::pet_tokens& pet_tokens() const { return pet_tokens_; }
    const pet_credentials& pet_keys() const { return pet_keys_; }

    // Started / draining, as main sets it; read by /readyz and the sessions.
    serving_state& state() { return state_; }
    // /readyz's shared, cached storage check.
    storage_readiness& readiness() { return readiness_; }

  private:
    limits_config limits_;
    core::write_policy write_policy_;
    std::string address_;
    std::string public_url_;
    bool public_url_needs_port_;
    router routes_;
    std::unique_ptr<storage::catalogue_store> catalogue_;
    std::unique_ptr<storage::user_store> users_;
    std::unique_ptr<storage::location_store> locations_;
    location_json location_objects_;  // after locations_, which it is built from
    std::unique_ptr<storage::file_store> files_;
    std::unique_ptr<storage::session_store> sessions_;
    placeholder_images images_;
    core::auth_tokens tokens_;
    password_worker passwords_;
    blocking_offload storage_calls_;
    fragment_list product_json_;
    fragment_list category_json_;
    fragment_list user_json_;
    std::unique_ptr<storage::pet_store> pets_;
    std::unique_ptr<storage::order_store> orders_;
    std::unique_ptr<storage::pet_user_store> pet_users_;
    std::unique_ptr<storage::pet_image_store> pet_images_;
    core::pet_tokens pet_tokens_;
    pet_credentials pet_keys_;
    serving_state state_;
    storage_readiness readiness_;
};

}  // namespace storefront::server
