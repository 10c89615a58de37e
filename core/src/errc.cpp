// The "storefront" error category: stable names and short client-facing messages for core::errc.
// server/ turns these codes into HTTP statuses; the messages here are safe to show to clients.

#include "core/errc.hpp"

#include <string>

namespace storefront::core {

namespace {

class storefront_error_category final : public boost::system::error_category {
  public:
    const char* name() const noexcept override { return "storefront"; }

    std::string message(int ev) const override {
        switch (static_cast<errc>(ev)) {
            case errc::ok:
                return "success";
            case errc::invalid_credentials:
                return "invalid e-mail or password";
            case errc::invalid_token:
                return "invalid or expired access token";
            case errc::invalid_refresh_token:
                return "invalid or expired refresh token";
            case errc::not_found:
                return "not found";
            case errc::busy:
                return "server busy, try again later";
            case errc::conflict:
                return "already exists";
            case errc::storage_full:
                return "storage full";
            case errc::invalid_reference:
                return "references an entity that does not exist";
            case errc::in_use:
                return "still in use";
            case errc::seed_read_only:
            case errc::seed_user_read_only:
                return "seed data is read-only";
            case errc::forbidden:
                return "forbidden";
            case errc::storage_unavailable:
                return "storage unavailable";
            case errc::invalid_input:
                return "invalid input";
            case errc::out_of_stock:
                return "not enough stock";
            case errc::cart_empty:
                return "the cart is empty";
            case errc::transition_not_allowed:
                return "not allowed in the order's current state";
            case errc::idempotency_mismatch:
                return "idempotency key used for another request";
            case errc::idempotency_in_progress:
                return "a request with this idempotency key is still running";
        }
        return "unknown storefront error";
    }
};

}  // namespace

const boost::system::error_category& storefront_category() noexcept {
    // A function-local static: constant-initialised, so it is usable during static initialisation too.
    static const storefront_error_category category;
    return category;
}

}  // namespace storefront::core
