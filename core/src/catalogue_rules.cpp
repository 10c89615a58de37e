// Input rules of the /api/v1 catalogue: field readers that collect every problem in class-validator
// wording, the create/update bodies built from them, the product filters, path ids and URLs.

#include "core/catalogue_rules.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/email.hpp"
#include "core/text.hpp"

namespace storefront::core {

namespace {

using kind = input_value::kind;

bool is_ascii_alnum(char c) noexcept {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

// Code points in valid UTF-8 text; nullopt for invalid UTF-8 (overlong forms, surrogates, > U+10FFFF).
std::optional<std::size_t> utf8_length(std::string_view text) noexcept {
    std::size_t count = 0;
    for (std::size_t i = 0; i < text.size(); ++count) {
        const auto lead = static_cast<unsigned char>(text[i]);
        std::size_t extra = 0;
        std::uint32_t cp = 0;
        if (lead < 0x80) {
            cp = lead;
        } else if (lead >= 0xC2 && lead <= 0xDF) {
            extra = 1;
            cp = lead & 0x1F;
        } else if (lead >= 0xE0 && lead <= 0xEF) {
            extra = 2;
            cp = lead & 0x0F;
        } else if (lead >= 0xF0 && lead <= 0xF4) {
            extra = 3;
            cp = lead & 0x07;
        } else {
            return std::nullopt;
        }
        if (extra > 0 && i + extra >= text.size()) {
            return std::nullopt;  // truncated sequence
        }
        for (std::size_t k = 1; k <= extra; ++k) {
            const auto next = static_cast<unsigned char>(text[i + k]);
            if ((next & 0xC0) != 0x80) {
                return std::nullopt;
            }
            cp = (cp << 6) | (next & 0x3F);
        }
        const bool overlong = (extra == 2 && cp < 0x800) || (extra == 3 && cp < 0x10000);
        if (overlong || (cp >= 0xD800 && cp <= 0xDFFF) || cp > 0x10FFFF) {
            return std::nullopt;
        }
        i += extra + 1;
    }
    return count;
}

bool has_two_decimals_at_most(double value) noexcept {
    const double cents = value * 100;
    return std::fabs(cents - std::round(cents)) < 1e-6 * std::max(1.0, std::fabs(cents));
}

bool is_ipv4(std::string_view host) noexcept {
    int parts = 0;
    std::size_t start = 0;
    while (start <= host.size()) {
        const std::size_t dot = std::min(host.find('.', start), host.size());
        const std::string_view part = host.substr(start, dot - start);
        if (part.empty() || part.size() > 3 ||
            !std::all_of(part.begin(), part.end(), [](char c) { return c >= '0' && c <= '9'; })) {
            return false;
        }
        int octet = 0;
        for (const char c : part) {
            octet = octet * 10 + (c - '0');
        }
        if (octet > 255) {
            return false;
        }
        ++parts;
        start = dot + 1;
    }
    return parts == 4;
}

bool is_domain(std::string_view host) noexcept {
    if (host.empty() || host.size() > 253) {
        return false;
    }
    std::size_t labels = 0;
    std::string_view last;
    std::size_t start = 0;
    while (start <= host.size()) {
        const std::size_t dot = std::min(host.find('.', start), host.size());
        const std::string_view label = host.substr(start, dot - start);
        const bool ok = !label.empty() && label.size() <= 63 && label.front() != '-' && label.back() != '-' &&
                        std::all_of(label.begin(), label.end(), [](char c) {
                            return is_ascii_alnum(c) || c == '-' || static_cast<unsigned char>(c) >= 0x80;
                        });
        if (!ok) {
            return false;
        }
        ++labels;
        last = label;
        start = dot + 1;
    }
    // A top-level domain of letters (or an IDN's xn-- form), as class-validator's isURL requires.
    const bool tld_ok =
        last.size() >= 2 && (last.rfind("xn--", 0) == 0 || std::all_of(last.begin(), last.end(), [](char c) {
                                 return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                                        static_cast<unsigned char>(c) >= 0x80;
                             }));
    return labels >= 2 && tld_ok;
}

// Reads the fields of one body, appending a message for every problem.
class field_reader {
  public:
    explicit field_reader(const input_fields& fields) : fields_(fields) {}

    // The field, or nullptr when absent or null (class-validator treats null as absent).
    const input_value* find(std::string_view name) const {
        const auto it = fields_.find(name);
        return (it == fields_.end() || it->second.type == kind::null) ? nullptr : &it->second;
    }

    bool present(std::string_view name) const { return find(name) != nullptr; }

    std::optional<std::string> text(std::string_view name, std::size_t max_length) {
        const input_value* v = find(name);
        if (!v) {
            fail(name, " should not be empty");
            fail(name, " must be a string");
            return std::nullopt;
        }
        if (v->type != kind::string && v->type != kind::text) {
            fail(name, " must be a string");
            return std::nullopt;
        }
        const auto length = utf8_length(v->text);
        if (!length) {
            fail(name, " must be a valid UTF-8 string");
            return std::nullopt;
        }
        if (*length == 0) {
            fail(name, " should not be empty");
            return std::nullopt;
        }
        if (*length > max_length) {
            fail(name, " must be shorter than or equal to " + std::to_string(max_length) + " characters");
            return std::nullopt;
        }
        return v->text;
    }

    std::optional<std::string> url(std::string_view name) {
        auto value = text(name, max_url_length);
        if (value && !is_url(*value)) {
            fail(name, " must be a URL address");
            return std::nullopt;
        }
        return value;
    }

    std::optional<double> price(std::string_view name) {
        const input_value* v = find(name);
        if (!v) {
            fail(name, " should not be empty");
            fail(name, " must be a positive number");
            return std::nullopt;
        }
        const std::optional<double> value =
            (v->type == kind::number || v->type == kind::text) ? parse_decimal(v->text) : std::nullopt;
        if (!value) {
            fail(name, " must be a number conforming to the specified constraints");
            return std::nullopt;
        }
        if (*value <= 0) {
            fail(name, " must be a positive number");
            return std::nullopt;
        }
        if (*value > max_price) {
            fail(name, " must not be greater than 1000000000");
            return std::nullopt;
        }
        if (!has_two_decimals_at_most(*value)) {
            fail(name, " must have at most 2 decimal places");
            return std::nullopt;
        }
        return value;
    }

    std::optional<std::int64_t> integer(std::string_view name) {
        const input_value* v = find(name);
        if (!v) {
            fail(name, " should not be empty");
            fail(name, " must be a number conforming to the specified constraints");
            return std::nullopt;
        }
        const std::optional<long long> value =
            (v->type == kind::number || v->type == kind::text) ? parse_integer(v->text) : std::nullopt;
        if (!value) {
            fail(name, " must be a number conforming to the specified constraints");
            return std::nullopt;
        }
        return static_cast<std::int64_t>(*value);
    }

    // Units in stock (issue 42): an integer from 0 to max_stock.
    std::optional<std::int64_t> stock(std::string_view name) {
        const input_value* v = find(name);
        const std::optional<long long> value =
            v && (v->type == kind::number || v->type == kind::text) ? parse_integer(v->text) : std::nullopt;
        if (!value || *value < 0 || *value > max_stock) {
            fail(name, " must be an integer from 0 to " + std::to_string(max_stock));
            return std::nullopt;
        }
        return static_cast<std::int64_t>(*value);
    }

    // A JSON array of URLs; a single form field counts as an array of one.
    std::optional<std::vector<std::string>> url_list(std::string_view name) {
        const input_value* v = find(name);
        std::vector<input_value> single;
        const std::vector<input_value>* items = nullptr;
        if (v && v->type == kind::array) {
            items = &v->items;
        } else if (v && v->type == kind::text) {
            single.push_back(*v);
            items = &single;
        } else {
            fail(name, " must be an array");
            return std::nullopt;
        }
        if (items->empty()) {
            fail(name, " must contain at least 1 elements");
            return std::nullopt;
        }
        if (items->size() > max_images) {
            fail(name, " must contain no more than " + std::to_string(max_images) + " elements");
            return std::nullopt;
        }
        std::vector<std::string> urls;
        for (const auto& item : *items) {
            const bool ok = (item.type == kind::string || item.type == kind::text) &&
                            item.text.size() <= max_url_length && utf8_length(item.text) && is_url(item.text);
            if (!ok) {
                messages_.push_back("each value in " + std::string(name) + " must be a URL address");
                return std::nullopt;
            }
            urls.push_back(item.text);
        }
        return urls;
    }

    std::optional<std::string> email(std::string_view name) {
        auto value = text(name, 254);
        if (!value) {
            return std::nullopt;
        }
        auto normalized = normalize_email(*value);
        if (!normalized) {
            fail(name, " must be an email");
        }
        return normalized;
    }

    std::optional<std::string> password(std::string_view name) {
        const input_value* v = find(name);
        if (!v || (v->type != kind::string && v->type != kind::text)) {
            fail(name, " must contain only letters and numbers");
            fail(name, " must be longer than or equal to 4 characters");
            return std::nullopt;
        }
        const std::string& value = v->text;
        bool ok = true;
        if (!std::all_of(value.begin(), value.end(), is_ascii_alnum)) {
            fail(name, " must contain only letters and numbers");
            ok = false;
        }
        if (value.size() < min_password_length) {
            fail(
                name,
                " must be longer than or equal to " + std::to_string(min_password_length) + " characters"
            );
            ok = false;
        } else if (value.size() > max_password_length) {
            fail(
                name,
                " must be shorter than or equal to " + std::to_string(max_password_length) + " characters"
            );
            ok = false;
        }
        return ok ? std::optional<std::string>(value) : std::nullopt;
    }

    std::optional<std::string> role(std::string_view name) {
        const input_value* v = find(name);
        if (!v || (v->type != kind::string && v->type != kind::text) ||
            (v->text != "admin" && v->text != "customer")) {
            fail(name, " must be one of the following values: admin, customer");
            return std::nullopt;
        }
        return v->text;
    }

    bool ok() const { return messages_.empty(); }

    // Every problem the reads found, or what `build` makes of the values read (called only when there is
    // none, so it may dereference them). Read every field before, so a body's problems come back at once.
    template <class Build>
    auto finish(Build build) -> validated<decltype(build())> {
        if (!ok()) {
            return validation_errors{std::move(messages_)};
        }
        return build();
    }

  private:
    void fail(std::string_view name, std::string_view what) {
        messages_.push_back(std::string(name).append(what));
    }

    const input_fields& fields_;
    std::vector<std::string> messages_;
};

// Reads `name` with `read` only when present: the optional fields of an update.
template <class Read>
auto if_present(field_reader& reader, std::string_view name, Read read) -> decltype(read()) {
    return reader.present(name) ? read() : std::nullopt;
}

}  // namespace

std::optional<std::int64_t> parse_path_id(std::string_view text) noexcept {
    const std::optional<long long> value = parse_integer(text);
    if (!value) {
        return std::nullopt;
    }
    return static_cast<std::int64_t>(*value);
}

bool is_url(std::string_view text) noexcept {
    if (text.empty() || text.size() > max_url_length) {
        return false;
    }
    for (const char c : text) {
        const auto byte = static_cast<unsigned char>(c);
        if (byte <= 0x20 || byte == 0x7F || c == '"' || c == '<' || c == '>' || c == '\\') {
            return false;
        }
    }
    std::string_view rest = text;
    const std::size_t scheme_end = rest.find("://");
    if (scheme_end != std::string_view::npos) {
        const std::string scheme = ascii_lower(rest.substr(0, scheme_end));
        if (scheme != "http" && scheme != "https") {
            return false;
        }
        rest.remove_prefix(scheme_end + 3);
    }
    const std::string_view authority = rest.substr(0, rest.find_first_of("/?#"));
    if (authority.find('@') != std::string_view::npos) {
        return false;  // user information in a link is a phishing tool, not an image address
    }
    std::string_view host = authority;
    if (const std::size_t colon = authority.rfind(':'); colon != std::string_view::npos) {
        host = authority.substr(0, colon);
        const std::string_view port = authority.substr(colon + 1);
        const auto number = parse_integer(port);
        if (port.empty() || port.front() == '-' || !number || *number < 1 || *number > 65535) {
            return false;
        }
    }
    return host == "localhost" || is_ipv4(host) || is_domain(host);
}

validated<product_draft> read_product_draft(const input_fields& fields) {
    field_reader reader(fields);
    auto title = reader.text("title", max_title_length);
    auto price = reader.price("price");
    auto description = reader.text("description", max_description_length);
    auto category_id = reader.integer("categoryId");
    auto images = reader.url_list("images");
    // Optional on create: a product made without it has none to sell yet.
    auto stock = if_present(reader, "stock", [&] { return reader.stock("stock"); });
    return reader.finish([&] {
        return product_draft{
            std::move(*title),
            *price,
            std::move(*description),
            *category_id,
            std::move(*images),
            stock.value_or(0)};
    });
}

validated<product_patch> read_product_patch(const input_fields& fields) {
    field_reader reader(fields);
    product_patch patch;
    patch.title = if_present(reader, "title", [&] { return reader.text("title", max_title_length); });
    patch.price = if_present(reader, "price", [&] { return reader.price("price"); });
    patch.description =
        if_present(reader, "description", [&] { return reader.text("description", max_description_length); });
    patch.category_id = if_present(reader, "categoryId", [&] { return reader.integer("categoryId"); });
    patch.images = if_present(reader, "images", [&] { return reader.url_list("images"); });
    patch.stock = if_present(reader, "stock", [&] { return reader.stock("stock"); });
    return reader.finish([&] { return std::move(patch); });
}

validated<category_draft> read_category_draft(const input_fields& fields) {
    field_reader reader(fields);
    auto name = reader.text("name", max_name_length);
    auto image = reader.url("image");
    return reader.finish([&] { return category_draft{std::move(*name), std::move(*image)}; });
}

validated<category_patch> read_category_patch(const input_fields& fields) {
    field_reader reader(fields);
    category_patch patch;
    patch.name = if_present(reader, "name", [&] { return reader.text("name", max_name_length); });
    patch.image = if_present(reader, "image", [&] { return reader.url("image"); });
    return reader.finish([&] { return std::move(patch); });
}

validated<user_registration> read_user_registration(const input_fields& fields) {
    field_reader reader(fields);
    auto email = reader.email("email");
    auto name = reader.text("name", max_name_length);
    auto password = reader.password("password");
    auto avatar = reader.url("avatar");
    auto role = if_present(reader, "role", [&] { return reader.role("role"); });
    return reader.finish([&] {
        return user_registration{
            std::move(*email),
            std::move(*name),
            std::move(*password),
            std::move(*avatar),
            role.value_or("customer")};
    });
}

validated<user_update> read_user_update(const input_fields& fields) {
    field_reader reader(fields);
    user_update update;
    update.email = if_present(reader, "email", [&] { return reader.email("email"); });
    update.name = if_present(reader, "name", [&] { return reader.text("name", max_name_length); });
    update.password = if_present(reader, "password", [&] { return reader.password("password"); });
    update.avatar = if_present(reader, "avatar", [&] { return reader.url("avatar"); });
    update.role = if_present(reader, "role", [&] { return reader.role("role"); });
    return reader.finish([&] { return std::move(update); });
}

validated<product_filter> parse_product_filter(const query_params& params) {
    validation_errors errors;
    auto& messages = errors.messages;
    product_filter filter;
    // The single value of `name`, or nullopt (absent, or given twice: a message).
    const auto single = [&](std::string_view name) -> std::optional<std::string_view> {
        const std::size_t count = count_of(params, name);
        if (count > 1) {
            messages.push_back(std::string(name) + " must be given at most once");
            return std::nullopt;
        }
        return count == 1 ? single_value(params, name) : std::nullopt;
    };
    const auto number = [&](std::string_view name) -> std::optional<double> {
        const auto text = single(name);
        if (!text) {
            return std::nullopt;
        }
        const auto value = parse_decimal(*text);
        if (!value) {
            messages.push_back(
                std::string(name) + " must be a number conforming to the specified constraints"
            );
            return std::nullopt;
        }
        if (*value < 0) {
            messages.push_back(std::string(name) + " must not be less than 0");
            return std::nullopt;
        }
        return value;
    };
    if (const auto title = single("title"); title && !title->empty()) {
        const auto length = utf8_length(*title);
        if (!length) {
            messages.push_back("title must be a valid UTF-8 string");
        } else if (*length > max_title_length) {
            messages.push_back("title must be shorter than or equal to 200 characters");
        } else {
            filter.title = std::string(*title);
        }
    }
    filter.price = number("price");
    filter.price_min = number("price_min");
    filter.price_max = number("price_max");
    if (filter.price_min && filter.price_max && *filter.price_min > *filter.price_max) {
        messages.push_back("price_min must not be greater than price_max");
    }
    if (const auto id = single("categoryId")) {
        const auto value = parse_integer(*id);
        if (!value) {
            messages.push_back("categoryId must be a number conforming to the specified constraints");
        } else {
            filter.category_id = static_cast<std::int64_t>(*value);
        }
    }
    if (const auto slug = single("categorySlug"); slug && !slug->empty()) {
        filter.category_slug = std::string(*slug);
    }
    if (!messages.empty()) {
        return errors;
    }
    return filter;
}

bool matches(const product_filter& filter, const product& p) noexcept {
    constexpr double cent = 0.005;
    if (filter.title) {
        const auto found = std::search(
            p.title.begin(),
            p.title.end(),
            filter.title->begin(),
            filter.title->end(),
            [](char a, char b) { return ascii_lower(a) == ascii_lower(b); }
        );
        if (found == p.title.end() && !filter.title->empty()) {
            return false;
        }
    }
    if (filter.price && std::fabs(p.price - *filter.price) >= cent) {
        return false;
    }
    if (filter.price_min && p.price < *filter.price_min - cent) {
        return false;
    }
    if (filter.price_max && p.price > *filter.price_max + cent) {
        return false;
    }
    if (filter.category_id && p.product_category.id != *filter.category_id) {
        return false;
    }
    if (filter.category_slug && p.product_category.slug != *filter.category_slug) {
        return false;
    }
    return true;
}

std::string category_in_use_message(std::int64_t id, std::size_t products) {
    return "Category " + std::to_string(id) + " still has " + std::to_string(products) +
           (products == 1 ? " product" : " products");
}

}  // namespace storefront::core
