#pragma once
// The shape most petstore handlers share: one resource named by a path key (pet id, order id, username),
// one storage call, then either the 200 answer or the surface's error for that resource (private to
// server_lib).

#include <string_view>
#include <type_traits>
#include <utility>

#include "server/api/petstore/pet_json.hpp"
#include "server/api/petstore/pet_services.hpp"
#include "server/routing/error_responses.hpp"
#include "server/routing/route.hpp"

namespace storefront::server::pet_params {

// `key` is a parsed path parameter or its 400; `call(stores, key)` runs on the storage pool and returns a
// result; `answer(value)` (or `answer()` for a result<void>) shapes the success; an error becomes
// pet_error_response(error, subject).
template <class Key, class Call, class Answer>
handler_result answer_for_key(
    or_response<Key> key, pet_services& app, std::string_view subject, Call call, Answer answer
) {
    if (!key) {
        co_return std::move(key).error();
    }
    const auto outcome = co_await app.storage([&] { return call(app, *key); });
    if (!outcome) {
        co_return pet_error_response(outcome.error(), subject);
    }
    if constexpr (std::is_void_v<typename std::remove_cvref_t<decltype(outcome)>::value_type>) {
        co_return answer();
    } else {
        co_return answer(*outcome);
    }
}

// The 200 answer with `value` as its JSON document.
inline constexpr auto json_ok = [](const auto& value) {
    return json_response(http::status::ok, to_json(value));
};

}  // namespace storefront::server::pet_params
