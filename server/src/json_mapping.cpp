// JSON for the store's value types, field order as the public fake-store service serves them.

#include "server/json_mapping.hpp"

#include "server/json_writer.hpp"

namespace storefront::server {

namespace {

void write_category(json_writer& w, const core::category& c) {
    w.begin_object()
        .key("id")
        .value(c.id)
        .key("name")
        .value(c.name)
        .key("slug")
        .value(c.slug)
        .key("image")
        .value(c.image)
        .key("creationAt")
        .value(iso8601_ms(c.created_at))
        .key("updatedAt")
        .value(iso8601_ms(c.updated_at))
        .end_object();
}

}  // namespace

std::string to_json(const core::category& c) {
    std::string out;
    json_writer w(out);
    write_category(w, c);
    return out;
}

std::string to_json(const core::product& p) {
    std::string out;
    out.reserve(512);
    json_writer w(out);
    w.begin_object()
        .key("id")
        .value(p.id)
        .key("title")
        .value(p.title)
        .key("slug")
        .value(p.slug)
        .key("price")
        .value(p.price)
        .key("description")
        .value(p.description)
        .key("category");
    write_category(w, p.product_category);
    w.key("images").begin_array();
    for (const auto& image : p.images) {
        w.value(image);
    }
    w.end_array()
        .key("creationAt")
        .value(iso8601_ms(p.created_at))
        .key("updatedAt")
        .value(iso8601_ms(p.updated_at))
        .end_object();
    return out;
}

std::string to_json(const core::user& u) {
    std::string out;
    json_writer w(out);
    w.begin_object()
        .key("id")
        .value(u.id)
        .key("email")
        .value(u.email)
        .key("name")
        .value(u.name)
        .key("role")
        .value(u.role)
        .key("avatar")
        .value(u.avatar)
        .key("creationAt")
        .value(iso8601_ms(u.created_at))
        .key("updatedAt")
        .value(iso8601_ms(u.updated_at))
        .end_object();
    return out;
}

std::string to_json(const core::location& l) {
    std::string out;
    json_writer w(out);
    w.begin_object()
        .key("id")
        .value(l.id)
        .key("name")
        .value(l.name)
        .key("description")
        .value(l.description)
        .key("latitude")
        .value(l.latitude)
        .key("longitude")
        .value(l.longitude)
        .end_object();
    return out;
}

}  // namespace storefront::server
