#pragma once
// What the pet store surface's handlers (/api/v3) use, handed to each of them by the router as the
// composition root mounted the table with.

#include <type_traits>

#include <boost/asio/awaitable.hpp>

#include "core/pet_auth.hpp"
#include "server/services/blocking_offload.hpp"
#include "server/services/login_brake.hpp"
#include "server/services/password_worker.hpp"
#include "server/services/pet_credentials.hpp"
#include "storage/pet_store.hpp"

namespace storefront::server {

class pet_services {
  public:
    struct parts {
        storage::pet_store& pets;
        storage::order_store& orders;
        storage::pet_user_store& pet_users;
        storage::pet_image_store& pet_images;
        const core::pet_tokens& pet_tokens;
        const pet_credentials& pet_keys;
        password_worker& passwords;
        login_brake& brake;
        blocking_offload& storage;
    };
    explicit pet_services(parts p) : p_(p) {}

    storage::pet_store& pets() const { return p_.pets; }
    storage::order_store& orders() const { return p_.orders; }
    storage::pet_user_store& pet_users() const { return p_.pet_users; }
    storage::pet_image_store& pet_images() const { return p_.pet_images; }
    const core::pet_tokens& pet_tokens() const { return p_.pet_tokens; }
    const pet_credentials& pet_keys() const { return p_.pet_keys; }
    password_worker& passwords() const { return p_.passwords; }
    login_brake& brake() const { return p_.brake; }

    // Runs `call` (which uses the stores) on the storage pool, or inline for the memory backend. Throws
    // offload_rejected when the pool's queue is full.
    template <class Call>
    boost::asio::awaitable<std::invoke_result_t<Call&>> storage(Call call) const {
        return p_.storage.run(std::move(call));
    }

  private:
    parts p_;
};

}  // namespace storefront::server
