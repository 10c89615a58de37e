#pragma once
// Domain error codes shared by every layer; server/ maps each one to an HTTP status and body.

#include <boost/system/error_code.hpp>
#include <boost/system/result.hpp>

#include <system_error>

namespace storefront::core {

enum class errc {
    ok = 0,
    invalid_credentials = 1,  // wrong e-mail or password
    invalid_token,            // access token missing, malformed, badly signed, expired or of the wrong kind
    invalid_refresh_token,    // refresh token malformed, badly signed, expired or of the wrong kind
    not_found,                // the referenced entity does not exist
    busy,                     // bounded work queue is full; try again later
    conflict,                 // the new key (e.g. a username) already belongs to another entity
    storage_full,             // a bounded store has no room left for this write
    invalid_reference,        // the request names another entity that does not exist (a product's category)
    in_use,                   // the entity is still referenced (a category with products)
    seed_read_only,           // the demo catalogue may not be changed or deleted
    seed_user_read_only,      // the demo users may not be changed or deleted (the public service's 401)
    forbidden,                // the caller is known but may not do this
    storage_unavailable,      // the storage backend cannot be reached; try again later
    // The shop (issue 42); the port that answers one says what the caller gets with it.
    invalid_input,            // a domain rule refused the change (the caller's callback knows which)
    out_of_stock,             // not enough stock left (the port fills in a core::stock_shortage)
    cart_empty,               // checkout of an empty cart
    transition_not_allowed,   // the order's state does not allow this (core::check_transition says which do)
    idempotency_mismatch,     // the Idempotency-Key was used for another request (422)
    idempotency_in_progress,  // the first request with this Idempotency-Key is still running (409)
};

const boost::system::error_category& storefront_category() noexcept;

inline boost::system::error_code make_error_code(errc e) noexcept {
    return {static_cast<int>(e), storefront_category()};
}

template <class T>
using result = boost::system::result<T>;

}  // namespace storefront::core

namespace boost::system {
template <>
struct is_error_code_enum<storefront::core::errc> : std::true_type {};
}  // namespace boost::system
