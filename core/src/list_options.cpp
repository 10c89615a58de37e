// Parsing of the shared list parameters (sortBy, order, q, select) against one list kind's fields.
// Every parameter is checked independently so a client sees all of its mistakes at once.

#include "core/list_options.hpp"

#include <algorithm>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/text.hpp"

namespace storefront::core {

namespace {

// The one of three per-kind tables that belongs to `kind`.
template <class Table>
const Table& of_kind(list_kind kind, const Table& products, const Table& categories, const Table& users) {
    switch (kind) {
        case list_kind::products:
            return products;
        case list_kind::categories:
            return categories;
        case list_kind::users:
            break;
    }
    return users;
}

struct sort_field {
    std::string_view name;
    sort_key key;
};

const std::vector<sort_field>& sort_table(list_kind kind) {
    static const std::vector<sort_field> products{
        {"id", sort_key::id},
        {"title", sort_key::title},
        {"price", sort_key::price},
        {"creationAt", sort_key::creation_at},
        {"updatedAt", sort_key::updated_at},
    };
    static const std::vector<sort_field> categories{{"id", sort_key::id}, {"name", sort_key::name}};
    static const std::vector<sort_field> users{
        {"id", sort_key::id},
        {"name", sort_key::name},
        {"email", sort_key::email},
    };
    return of_kind(kind, products, categories, users);
}

std::string joined(const std::vector<std::string_view>& names) {
    std::string out;
    for (const std::string_view name : names) {
        if (!out.empty()) {
            out += ", ";
        }
        out += name;
    }
    return out;
}

bool is_space(char c) noexcept {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

std::vector<std::string> words_of(std::string_view text) {
    std::vector<std::string> words;
    std::size_t i = 0;
    while (i < text.size()) {
        while (i < text.size() && is_space(text[i])) {
            ++i;
        }
        const std::size_t start = i;
        while (i < text.size() && !is_space(text[i])) {
            ++i;
        }
        if (i > start) {
            words.push_back(ascii_lower(text.substr(start, i - start)));
        }
    }
    return words;
}

// The requested fields in the kind's order with `id` first, or nullopt when an item is empty or unknown.
std::optional<std::vector<std::string>> selected_fields(list_kind kind, std::string_view text) {
    const std::vector<std::string_view>& fields = json_fields_of(kind);
    std::vector<bool> wanted(fields.size(), false);
    wanted[0] = true;  // id
    while (true) {
        const std::size_t comma = text.find(',');
        const std::string_view item = trim_spaces(text.substr(0, comma));
        const auto found = std::find(fields.begin(), fields.end(), item);
        if (found == fields.end()) {
            return std::nullopt;
        }
        wanted[static_cast<std::size_t>(found - fields.begin())] = true;
        if (comma == std::string_view::npos) {
            break;
        }
        text.remove_prefix(comma + 1);
    }
    std::vector<std::string> out;
    for (std::size_t i = 0; i < fields.size(); ++i) {
        if (wanted[i]) {
            out.emplace_back(fields[i]);
        }
    }
    return out;
}

// Sets `fields` from `select` when it is given once and valid; otherwise adds the problem to `messages`.
void read_select(
    list_kind kind,
    const query_params& params,
    std::vector<std::string>& fields,
    std::vector<std::string>& messages
) {
    if (const auto text = one_value(params, "select", messages)) {
        if (auto selected = selected_fields(kind, *text)) {
            fields = std::move(*selected);
        } else {
            messages.push_back("select must be a comma-separated list of: " + joined(json_fields_of(kind)));
        }
    }
}

}  // namespace

bool list_options::plain() const noexcept {
    return sort_by == sort_key::id && order == sort_order::asc && search_words.empty() && select.empty();
}

bool list_options::selects(std::string_view name) const {
    return select.empty() || std::find(select.begin(), select.end(), name) != select.end();
}

const std::vector<std::string_view>& sort_fields_of(list_kind kind) {
    static const auto names_of = [](list_kind k) {
        std::vector<std::string_view> names;
        for (const sort_field& f : sort_table(k)) {
            names.push_back(f.name);
        }
        return names;
    };
    static const std::vector<std::string_view> products = names_of(list_kind::products);
    static const std::vector<std::string_view> categories = names_of(list_kind::categories);
    static const std::vector<std::string_view> users = names_of(list_kind::users);
    return of_kind(kind, products, categories, users);
}

const std::vector<std::string_view>& json_fields_of(list_kind kind) {
    static const std::vector<std::string_view> products{
        "id",
        "title",
        "slug",
        "price",
        "stock",
        "description",
        "category",
        "images",
        "creationAt",
        "updatedAt"};
    static const std::vector<std::string_view> categories{
        "id", "name", "slug", "image", "creationAt", "updatedAt"};
    static const std::vector<std::string_view> users{
        "id", "email", "name", "role", "avatar", "creationAt", "updatedAt"};
    return of_kind(kind, products, categories, users);
}

validated<list_options> parse_list_options(list_kind kind, const query_params& params) {
    list_options options;
    std::vector<std::string> messages;

    if (const auto text = one_value(params, "sortBy", messages)) {
        const auto& table = sort_table(kind);
        const auto found =
            std::find_if(table.begin(), table.end(), [&](const sort_field& f) { return f.name == *text; });
        if (found == table.end()) {
            messages.push_back("sortBy must be one of: " + joined(sort_fields_of(kind)));
        } else {
            options.sort_by = found->key;
        }
    }
    if (const auto text = one_value(params, "order", messages)) {
        if (*text == "asc") {
            options.order = sort_order::asc;
        } else if (*text == "desc") {
            options.order = sort_order::desc;
        } else {
            messages.push_back("order must be one of: asc, desc");
        }
    }
    if (const auto text = one_value(params, "q", messages)) {
        options.search_words = words_of(*text);
    }
    read_select(kind, params, options.select, messages);

    if (!messages.empty()) {
        return validation_errors{std::move(messages)};
    }
    return options;
}

validated<std::vector<std::string>> parse_select(list_kind kind, const query_params& params) {
    std::vector<std::string> fields;
    std::vector<std::string> messages;
    read_select(kind, params, fields, messages);
    if (!messages.empty()) {
        return validation_errors{std::move(messages)};
    }
    // in_place: a vector of strings would also make a validation_errors.
    return validated<std::vector<std::string>>(boost::system::in_place_value, std::move(fields));
}

}  // namespace storefront::core
