#pragma once
// How a partial update (a *_patch of std::optional fields) lands on a row, written once for the adapters
// that apply patches themselves.

#include <optional>

namespace storefront::storage::detail {

// `field` takes the patch's value when the patch gives one, else keeps its own.
template <class T>
void patch_field(T& field, const std::optional<T>& value) {
    if (value) {
        field = *value;
    }
}

}  // namespace storefront::storage::detail
