// Pet surface JSON: body decoding (JSON, url-encoded forms as an object of strings), strict readers that
// name the offending field, and writers in the petstore's field order (absent optionals omitted).

#include "server/api/petstore/pet_json.hpp"

#include <algorithm>
#include <cctype>
#include <type_traits>

#include <boost/json/object.hpp>
#include <boost/json/parse.hpp>

#include "core/email.hpp"
#include "core/pet_rules.hpp"
#include "core/query.hpp"
#include "server/codec/json_writer.hpp"
#include "server/codec/request_body.hpp"
#include "server/routing/error_responses.hpp"

namespace storefront::server {

namespace json = boost::json;

namespace {

using core::max_order_quantity;
using core::max_pet_id;
using core::max_pet_items;
using core::max_pet_text;

// Sets `path` ("a" or "a.b") in `object`; a second value for the same key turns it into an array.
void set_form_value(json::object& object, std::string_view path, std::string_view value) {
    const auto dot = path.find('.');
    if (dot != std::string_view::npos && dot > 0 && dot + 1 < path.size()) {
        json::value& inner = object[path.substr(0, dot)];
        if (!inner.is_object()) {
            inner = json::object();
        }
        set_form_value(inner.as_object(), path.substr(dot + 1), value);
        return;
    }
    const auto it = object.find(path);
    if (it == object.end()) {
        object.emplace(path, json::string(value));
    } else if (it->value().is_array()) {
        it->value().as_array().emplace_back(json::string(value));
    } else {
        json::array items;
        items.push_back(it->value());
        items.emplace_back(json::string(value));
        it->value() = std::move(items);
    }
}

or_response<pet_document> decode_form(std::string_view body) {
    const auto params = parse_form(body);
    if (!params) {
        return pet_error(http::status::bad_request, "Malformed form body");
    }
    json::object object;
    for (const auto& param : *params) {
        if (!param.name.empty()) {
            set_form_value(object, param.name, param.value);
        }
    }
    return pet_document{std::move(object), true};
}

// Reads typed members of one JSON object, recording every problem as "<prefix><name> ...".
class field_reader {
  public:
    field_reader(
        const json::object& object, bool lenient, core::validation_errors& errors, std::string prefix
    )
        : object_(object), lenient_(lenient), errors_(errors), prefix_(std::move(prefix)) {}

    // The member, or nullptr when absent or null.
    [[nodiscard]] const json::value* find(std::string_view name) const {
        const auto it = object_.find(name);
        return it == object_.end() || it->value().is_null() ? nullptr : &it->value();
    }

    void fail(std::string_view name, std::string_view problem) {
        errors_.messages.push_back(prefix_ + std::string(name) + " " + std::string(problem));
    }

    [[nodiscard]] std::string field_name(std::string_view name) const { return prefix_ + std::string(name); }

    bool required(std::string_view name) {
        if (find(name) == nullptr) {
            fail(name, "is required");
            return false;
        }
        return true;
    }

    std::optional<std::int64_t> integer(std::string_view name, std::int64_t min, std::int64_t max) {
        const json::value* v = find(name);
        if (v == nullptr) {
            return std::nullopt;
        }
        std::optional<std::int64_t> n;
        if (v->is_int64()) {
            n = v->get_int64();
        } else if (v->is_uint64()) {
            fail(name, "must be between " + std::to_string(min) + " and " + std::to_string(max));
            return std::nullopt;
        } else if (lenient_ && v->is_string()) {
            n = core::parse_integer(std::string_view(v->get_string()));
        }
        if (!n) {
            fail(name, "must be an integer");
            return std::nullopt;
        }
        if (*n < min || *n > max) {
            fail(name, "must be between " + std::to_string(min) + " and " + std::to_string(max));
            return std::nullopt;
        }
        return n;
    }

    std::optional<std::string> string(std::string_view name) {
        const json::value* v = find(name);
        if (v == nullptr) {
            return std::nullopt;
        }
        if (!v->is_string()) {
            fail(name, "must be a string");
            return std::nullopt;
        }
        const auto& s = v->get_string();
        if (s.size() > max_pet_text) {
            fail(name, "must be at most " + std::to_string(max_pet_text) + " characters");
            return std::nullopt;
        }
        return std::string(s.data(), s.size());
    }

    std::optional<bool> boolean(std::string_view name) {
        const json::value* v = find(name);
        if (v == nullptr) {
            return std::nullopt;
        }
        if (v->is_bool()) {
            return v->get_bool();
        }
        if (lenient_ && v->is_string() && (v->get_string() == "true" || v->get_string() == "false")) {
            return v->get_string() == "true";
        }
        fail(name, "must be a boolean");
        return std::nullopt;
    }

    // The member as an array; a form's single string counts as a one-element array.
    std::optional<json::array> array(std::string_view name) {
        const json::value* v = find(name);
        if (v == nullptr) {
            return std::nullopt;
        }
        if (v->is_array()) {
            if (v->get_array().size() > max_pet_items) {
                fail(name, "must have at most " + std::to_string(max_pet_items) + " items");
                return std::nullopt;
            }
            return v->get_array();
        }
        if (lenient_ && v->is_string()) {
            return json::array{*v};
        }
        fail(name, "must be an array");
        return std::nullopt;
    }

    [[nodiscard]] bool lenient() const { return lenient_; }
    [[nodiscard]] core::validation_errors& errors() const { return errors_; }

  private:
    const json::object& object_;
    bool lenient_;
    core::validation_errors& errors_;
    std::string prefix_;
};

std::optional<core::pet_category> read_category(field_reader& r) {
    const json::value* v = r.find("category");
    if (v == nullptr) {
        return std::nullopt;
    }
    if (!v->is_object()) {
        r.fail("category", "must be an object");
        return std::nullopt;
    }
    field_reader nested(v->get_object(), r.lenient(), r.errors(), r.field_name("category."));
    core::pet_category c;
    c.id = nested.integer("id", 0, max_pet_id);
    c.name = nested.string("name");
    return c;
}

std::vector<core::pet_tag> read_tags(field_reader& r) {
    std::vector<core::pet_tag> tags;
    const auto items = r.array("tags");
    if (!items) {
        return tags;
    }
    for (std::size_t i = 0; i < items->size(); ++i) {
        const json::value& item = (*items)[i];
        const std::string where = "tags[" + std::to_string(i) + "]";
        if (r.lenient() && item.is_string()) {
            tags.push_back({std::nullopt, std::string(item.get_string())});  // a form sends tag names
            continue;
        }
        if (!item.is_object()) {
            r.fail(where, "must be an object");
            continue;
        }
        field_reader nested(item.get_object(), r.lenient(), r.errors(), r.field_name(where + "."));
        core::pet_tag t;
        t.id = nested.integer("id", 0, max_pet_id);
        t.name = nested.string("name");
        tags.push_back(std::move(t));
    }
    return tags;
}

const json::object* as_object(
    const pet_document& doc, core::validation_errors& errors, std::string_view what
) {
    if (!doc.value.is_object()) {
        errors.messages.push_back("the body must be a JSON object (" + std::string(what) + ")");
        return nullptr;
    }
    return &doc.value.get_object();
}

core::validated<pet_user_input> read_user_object(
    const json::object& object, bool lenient, core::validation_errors& errors, const std::string& prefix
) {
    field_reader r(object, lenient, errors, prefix);
    pet_user_input in;
    in.profile.id = r.integer("id", 0, max_pet_id).value_or(0);
    if (r.required("username")) {
        if (auto name = r.string("username")) {
            if (core::valid_username(*name)) {
                in.profile.username = std::move(*name);
            } else {
                r.fail("username", "must be 1-64 characters, each a letter, digit or one of ._-@+");
            }
        }
    }
    in.profile.first_name = r.string("firstName");
    in.profile.last_name = r.string("lastName");
    if (auto email = r.string("email")) {
        if (core::normalize_email(*email)) {
            in.profile.email = std::move(*email);
        } else {
            r.fail("email", "must be an email");
        }
    }
    in.password = r.string("password");
    if (in.password && in.password->empty()) {
        r.fail("password", "must not be empty");
    }
    in.profile.phone = r.string("phone");
    if (auto status = r.integer("userStatus", INT32_MIN, INT32_MAX)) {
        in.profile.user_status = static_cast<std::int32_t>(*status);
    }
    return in;
}

void write_pet(json_writer& w, const core::pet& p) {
    w.begin_object().key("id").value(p.id);
    if (p.category) {
        w.key("category").begin_object();
        if (p.category->id) {
            w.key("id").value(*p.category->id);
        }
        if (p.category->name) {
            w.key("name").value(*p.category->name);
        }
        w.end_object();
    }
    w.key("name").value(p.name).key("photoUrls").begin_array();
    for (const auto& url : p.photo_urls) {
        w.value(url);
    }
    w.end_array().key("tags").begin_array();
    for (const auto& t : p.tags) {
        w.begin_object();
        if (t.id) {
            w.key("id").value(*t.id);
        }
        if (t.name) {
            w.key("name").value(*t.name);
        }
        w.end_object();
    }
    w.end_array();
    if (p.status) {
        w.key("status").value(core::to_string(*p.status));
    }
    w.end_object();
}

void write_user(json_writer& w, const core::pet_user& u) {
    w.begin_object().key("id").value(u.id).key("username").value(u.username);
    const auto optional_text = [&w](std::string_view name, const std::optional<std::string>& value) {
        if (value) {
            w.key(name).value(*value);
        }
    };
    optional_text("firstName", u.first_name);
    optional_text("lastName", u.last_name);
    optional_text("email", u.email);
    optional_text("phone", u.phone);
    if (u.user_status) {
        w.key("userStatus").value(static_cast<std::int64_t>(*u.user_status));
    }
    w.end_object();
}

// `doc` as the object `what` names ("a Pet"), its fields read by `read` (a field_reader -> the value, with
// the problems it found recorded): the value, or every problem.
template <class Read>
auto read_object_of(const pet_document& doc, std::string_view what, Read read)
    -> core::validated<std::invoke_result_t<Read, field_reader&>> {
    core::validation_errors errors;
    const json::object* object = as_object(doc, errors, what);
    if (object == nullptr) {
        return errors;
    }
    field_reader r(*object, doc.from_form, errors, "");
    auto value = read(r);
    if (!errors.messages.empty()) {
        return errors;
    }
    return value;
}

}  // namespace

or_response<pet_document> decode_pet_document(
    std::string_view content_type, std::string_view body, bool allow_form
) {
    const std::string media_type = media_type_of(content_type);
    if (media_type == "application/json" || (media_type.empty() && !body.empty() && body.front() == '{')) {
        if (body.empty()) {
            return pet_error(http::status::bad_request, "A request body is required");
        }
        auto doc = parse_json_body(body);
        if (!doc) {
            return pet_error(http::status::bad_request, "Malformed JSON body: " + doc.error().message());
        }
        return pet_document{std::move(*doc), false};
    }
    if (allow_form && media_type == "application/x-www-form-urlencoded") {
        return decode_form(body);
    }
    if (media_type.empty() && body.empty()) {
        return pet_error(http::status::bad_request, "A request body is required");
    }
    return pet_error(
        http::status::unsupported_media_type,
        allow_form ? "Unsupported Media Type: send application/json or application/x-www-form-urlencoded"
                   : "Unsupported Media Type: send application/json"
    );
}

core::validated<core::pet> read_pet(const pet_document& doc, bool id_required) {
    return read_object_of(doc, "a Pet", [id_required](field_reader& r) {
        core::pet p;
        if (id_required) {
            if (r.required("id")) {
                p.id = r.integer("id", 1, max_pet_id).value_or(0);
            }
        } else {
            p.id = r.integer("id", 0, max_pet_id).value_or(0);
        }
        p.category = read_category(r);
        if (r.required("name")) {
            if (auto name = r.string("name")) {
                if (name->empty()) {
                    r.fail("name", "must not be empty");
                }
                p.name = std::move(*name);
            }
        }
        if (r.required("photoUrls")) {
            if (auto urls = r.array("photoUrls")) {
                for (const auto& url : *urls) {
                    if (!url.is_string() || url.get_string().size() > max_pet_text) {
                        r.fail("photoUrls", "must be an array of strings");
                        break;
                    }
                    p.photo_urls.emplace_back(url.get_string());
                }
            }
        }
        p.tags = read_tags(r);
        if (auto status = r.string("status")) {
            p.status = core::parse_pet_status(*status);
            if (!p.status) {
                r.fail("status", "must be one of available, pending, sold");
            }
        }
        return p;
    });
}

core::validated<core::pet_order> read_order(const pet_document& doc) {
    return read_object_of(doc, "an Order", [](field_reader& r) {
        core::pet_order o;
        o.id = r.integer("id", 0, max_pet_id).value_or(0);
        if (r.required("petId")) {
            o.pet_id = r.integer("petId", 1, max_pet_id).value_or(0);
        }
        if (r.required("quantity")) {
            o.quantity = static_cast<std::int32_t>(r.integer("quantity", 1, max_order_quantity).value_or(0));
        }
        if (auto ship = r.string("shipDate")) {
            o.ship_date = core::parse_date_time(*ship);
            if (!o.ship_date) {
                r.fail("shipDate", "must be an RFC 3339 date-time, e.g. 2026-01-02T03:04:05Z");
            }
        }
        if (auto status = r.string("status")) {
            const auto parsed = core::parse_order_status(*status);
            if (parsed) {
                o.status = *parsed;
            } else {
                r.fail("status", "must be one of placed, approved, delivered");
            }
        }
        o.complete = r.boolean("complete").value_or(false);
        return o;
    });
}

core::validated<pet_user_input> read_user(const pet_document& doc) {
    core::validation_errors errors;
    const json::object* object = as_object(doc, errors, "a User");
    if (object == nullptr) {
        return errors;
    }
    auto user = read_user_object(*object, doc.from_form, errors, "");
    if (!errors.messages.empty()) {
        return errors;
    }
    return user;
}

core::validated<std::vector<pet_user_input>> read_user_list(const pet_document& doc, std::size_t max_users) {
    core::validation_errors errors;
    if (!doc.value.is_array()) {
        return core::validation_errors{{"the body must be a JSON array of User objects"}};
    }
    const auto& items = doc.value.get_array();
    if (items.empty() || items.size() > max_users) {
        return core::validation_errors{{"the list must hold 1 to " + std::to_string(max_users) + " users"}};
    }
    std::vector<pet_user_input> users;
    for (std::size_t i = 0; i < items.size(); ++i) {
        const std::string prefix = "[" + std::to_string(i) + "].";
        if (!items[i].is_object()) {
            errors.messages.push_back(prefix.substr(0, prefix.size() - 1) + " must be a User object");
            continue;
        }
        auto user = read_user_object(items[i].get_object(), false, errors, prefix);
        if (user) {
            users.push_back(std::move(*user));
        }
    }
    if (!errors.messages.empty()) {
        return errors;
    }
    return core::validated<std::vector<pet_user_input>>(boost::system::in_place_value, std::move(users));
}

namespace {

// One value written by `write`, or an array of them.
template <class Item, class Write>
std::string json_of(const Item& item, Write write) {
    std::string out;
    json_writer w(out);
    write(w, item);
    return out;
}

template <class Item, class Write>
std::string json_array_of(const std::vector<Item>& items, Write write) {
    std::string out;
    json_writer w(out);
    w.begin_array();
    for (const auto& item : items) {
        write(w, item);
    }
    w.end_array();
    return out;
}

}  // namespace

std::string to_json(const core::pet& p) {
    return json_of(p, write_pet);
}

std::string to_json(const core::pet_order& o) {
    std::string out;
    json_writer w(out);
    w.begin_object()
        .key("id")
        .value(o.id)
        .key("petId")
        .value(o.pet_id)
        .key("quantity")
        .value(static_cast<std::int64_t>(o.quantity));
    if (o.ship_date) {
        w.key("shipDate").value(iso8601_ms(*o.ship_date));
    }
    w.key("status").value(core::to_string(o.status)).key("complete").value(o.complete).end_object();
    return out;
}

std::string to_json(const core::pet_user& u) {
    return json_of(u, write_user);
}

std::string to_json(const std::vector<core::pet>& pets) {
    return json_array_of(pets, write_pet);
}

std::string to_json(const std::vector<core::pet_user>& users) {
    return json_array_of(users, write_user);
}

}  // namespace storefront::server
