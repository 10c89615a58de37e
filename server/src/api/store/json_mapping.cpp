// JSON for the store's value types, field order as the public fake-store service serves them.

#include "server/api/store/json_mapping.hpp"

#include <algorithm>
#include <array>
#include <charconv>

#include "server/codec/json_writer.hpp"

namespace storefront::server {

namespace {

// A stored URL as clients see it: storefront's own paths under the public URL, others as they are.
std::string public_form(const std::string& url, std::string_view public_url) {
    if (!url.empty() && url.front() == '/') {
        return std::string(public_url) + url;
    }
    return url;
}

// Whether `name` is one of the selected fields (core::list_options::select); none selected: every field.
bool wanted(const field_list& fields, std::string_view name) {
    return fields.empty() || std::find(fields.begin(), fields.end(), name) != fields.end();
}

// Writes `"name":value` when `name` is selected.
template <class Value>
void write_field(json_writer& w, const field_list& fields, std::string_view name, const Value& value) {
    if (wanted(fields, name)) {
        w.key(name).value(value);
    }
}

// Every record's last fields (creationAt, updatedAt, when selected), then the end of its object.
void write_timestamps_and_end(
    json_writer& w, const field_list& fields, std::int64_t created_at, std::int64_t updated_at
) {
    write_field(w, fields, "creationAt", iso8601_ms(created_at));
    write_field(w, fields, "updatedAt", iso8601_ms(updated_at));
    w.end_object();
}

void write_category(
    json_writer& w, const core::category& c, std::string_view public_url, const field_list& fields
) {
    w.begin_object().key("id").value(c.id);
    write_field(w, fields, "name", c.name);
    write_field(w, fields, "slug", c.slug);
    write_field(w, fields, "image", public_form(c.image, public_url));
    write_timestamps_and_end(w, fields, c.created_at, c.updated_at);
}

// Typical serialised size of a location, so a response is built with one allocation.
constexpr std::size_t location_bytes_hint = 160;

}  // namespace

// Fixed keys appended as literals, the same bytes json_writer would write.
void append_location_fields(std::string& out, const core::location& l) {
    std::array<char, 24> id{};
    const auto [id_end, ec] = std::to_chars(id.data(), id.data() + id.size(), l.id);
    out += R"({"id":)";
    out.append(id.data(), id_end);
    out += R"(,"name":)";
    append_json_string(out, l.name);
    out += R"(,"description":)";
    append_json_string(out, l.description);
    out += R"(,"latitude":)";
    append_json_number(out, l.latitude);
    out += R"(,"longitude":)";
    append_json_number(out, l.longitude);
}

namespace {

void append_location(std::string& out, const core::location& l) {
    append_location_fields(out, l);
    out += '}';
}

}  // namespace

std::string to_json(const core::category& c, std::string_view public_url, const field_list& fields) {
    std::string out;
    json_writer w(out);
    write_category(w, c, public_url, fields);
    return out;
}

std::string to_json(const core::product& p, std::string_view public_url, const field_list& fields) {
    std::string out;
    out.reserve(512);
    json_writer w(out);
    w.begin_object().key("id").value(p.id);
    write_field(w, fields, "title", p.title);
    write_field(w, fields, "slug", p.slug);
    write_field(w, fields, "price", p.price);
    write_field(w, fields, "stock", p.stock);  // issue 42: ours, in both --compat modes (README)
    write_field(w, fields, "description", p.description);
    if (wanted(fields, "category")) {
        w.key("category");
        write_category(w, p.product_category, public_url, {});
    }
    if (wanted(fields, "images")) {
        w.key("images").begin_array();
        for (const auto& image : p.images) {
            w.value(public_form(image, public_url));
        }
        w.end_array();
    }
    write_timestamps_and_end(w, fields, p.created_at, p.updated_at);
    return out;
}

std::string to_json(
    const core::user& u, std::string_view public_url, const field_list& fields, std::string_view password_mask
) {
    std::string out;
    json_writer w(out);
    w.begin_object().key("id").value(u.id);
    write_field(w, fields, "email", u.email);
    if (!password_mask.empty() && fields.empty()) {
        w.key("password").value(password_mask);  // `select` never names it: not one of json_fields_of(users)
    }
    write_field(w, fields, "name", u.name);
    write_field(w, fields, "role", u.role);
    write_field(w, fields, "avatar", public_form(u.avatar, public_url));
    write_timestamps_and_end(w, fields, u.created_at, u.updated_at);
    return out;
}

std::string to_json_array(
    const std::vector<const core::user*>& items,
    std::string_view public_url,
    const field_list& fields,
    std::string_view password_mask
) {
    std::string out = "[";
    for (const core::user* u : items) {
        if (out.size() > 1) {
            out += ',';
        }
        out += to_json(*u, public_url, fields, password_mask);
    }
    out += ']';
    return out;
}

std::string to_json(const core::location& l) {
    std::string out;
    out.reserve(location_bytes_hint);
    append_location(out, l);
    return out;
}

std::string to_json_array(const std::vector<core::location>& items) {
    std::string out;
    out.reserve(2 + items.size() * location_bytes_hint);
    out += '[';
    for (const auto& l : items) {
        if (out.size() > 1) {
            out += ',';
        }
        append_location(out, l);
    }
    out += ']';
    return out;
}

}  // namespace storefront::server
