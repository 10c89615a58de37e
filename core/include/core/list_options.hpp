#pragma once
// The list parameters every paged list shares: `sortBy`, `order`, `q` and `select`, checked against the
// fields of one list kind (products, categories, users).

#include <string>
#include <string_view>
#include <vector>

#include "core/query.hpp"
#include "core/validation.hpp"

namespace storefront::core {

enum class list_kind { products, categories, users };

// One key for every kind; parse_list_options only yields the keys valid for its kind.
enum class sort_key { id, title, price, creation_at, updated_at, name, email };

enum class sort_order { asc, desc };

struct list_options {
    sort_key sort_by = sort_key::id;
    sort_order order = sort_order::asc;
    // The words of `q` (split on spaces, tabs and line breaks), ASCII lower-cased; empty matches everything.
    std::vector<std::string> search_words;
    // The JSON fields `select` asks for, in the kind's field order, `id` always first and no repeats;
    // empty when `select` is absent (every field).
    std::vector<std::string> select;

    // Whether the JSON field `name` belongs in the answer.
    [[nodiscard]] bool selects(std::string_view name) const;

    // Whether nothing beyond the default list is asked for: id order ascending, no search, every field
    // (so the answer can come from the pre-serialised id-ordered pages).
    [[nodiscard]] bool plain() const noexcept;
};

// The values `sortBy` accepts for a kind, in the order messages list them ("id, title, price, ...").
[[nodiscard]] const std::vector<std::string_view>& sort_fields_of(list_kind kind);

// The JSON field names of a kind's items, in serialisation order (server/src/api/store/json_mapping.cpp).
[[nodiscard]] const std::vector<std::string_view>& json_fields_of(list_kind kind);

// Reads `sortBy`, `order`, `q` and `select`; other parameters are ignored. Every problem is reported, with
// the allowed values named exactly: "sortBy must be one of: id, title, price, creationAt, updatedAt",
// "order must be one of: asc, desc", "select must be a comma-separated list of: id, title, ...", and
// "<name> must be given at most once". Values are case-sensitive, like the JSON field names they name.
[[nodiscard]] validated<list_options> parse_list_options(list_kind kind, const query_params& params);

// Reads `select` alone, for single items (which take no sortBy, order or q): the fields as in
// list_options::select (empty when absent), or "select must be a comma-separated list of: …" and
// "select must be given at most once".
[[nodiscard]] validated<std::vector<std::string>> parse_select(list_kind kind, const query_params& params);

}  // namespace storefront::core
