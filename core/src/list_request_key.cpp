// product_list_key: the filter, the list options and the page written field by field, each text with its
// length first so that a separator inside a value cannot make two requests collide.

#include "core/list_request_key.hpp"

#include <array>
#include <charconv>
#include <cstdint>
#include <optional>
#include <string_view>
#include <type_traits>

namespace storefront::core {

namespace {

void put_text(std::string& key, std::string_view text) {
    key += std::to_string(text.size());
    key += ':';
    key += text;
}

template <class Number>
void put_number(std::string& key, Number value) {
    std::array<char, 32> digits{};
    const auto [end, ec] = std::to_chars(digits.data(), digits.data() + digits.size(), value);
    key.append(digits.data(), end);
    key += ';';
}

template <class Value>
void put_optional(std::string& key, const std::optional<Value>& value) {
    if (!value) {
        key += '-';
        return;
    }
    key += '+';
    if constexpr (std::is_same_v<Value, std::string>) {
        put_text(key, *value);
    } else {
        put_number(key, *value);
    }
}

}  // namespace

std::string product_list_key(
    const product_filter& filter, const list_options& options, const page_request& page
) {
    std::string key;
    key.reserve(96);
    put_optional(key, filter.title);
    put_optional(key, filter.price);
    put_optional(key, filter.price_min);
    put_optional(key, filter.price_max);
    put_optional(key, filter.category_id);
    put_optional(key, filter.category_slug);
    put_number(key, static_cast<int>(options.sort_by));
    put_number(key, static_cast<int>(options.order));
    put_number(key, options.search_words.size());
    for (const std::string& word : options.search_words) {
        put_text(key, word);
    }
    put_number(key, options.select.size());
    for (const std::string& field : options.select) {
        put_text(key, field);
    }
    put_number(key, page.offset);
    put_number(key, page.limit);
    return key;
}

}  // namespace storefront::core
