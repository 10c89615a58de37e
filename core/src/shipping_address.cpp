// Shipping address rules: one check per field, all problems collected so a client can fix them at once.

#include "core/shipping_address.hpp"

#include <optional>

namespace storefront::core {

namespace {

std::string trimmed(std::string_view text) {
    const auto first = text.find_first_not_of(" \t\r\n");
    if (first == std::string_view::npos) {
        return {};
    }
    const auto last = text.find_last_not_of(" \t\r\n");
    return std::string(text.substr(first, last - first + 1));
}

bool has_control(std::string_view text) {
    for (const char c : text) {
        if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) {
            return true;
        }
    }
    return false;
}

class reader {
  public:
    explicit reader(const input_fields& fields) : fields_(fields) {}

    // A required (or, with `optional`, possibly absent) string within `max` bytes; nullopt when absent or
    // bad.
    std::optional<std::string> text(std::string_view name, std::size_t max, bool optional = false) {
        const auto it = fields_.find(name);
        if (it == fields_.end() || it->second.type == input_value::kind::null) {
            if (!optional) {
                fail(name, "is required");
            }
            return std::nullopt;
        }
        const auto& v = it->second;
        if (v.type != input_value::kind::string && v.type != input_value::kind::text) {
            fail(name, "must be a string");
            return std::nullopt;
        }
        std::string value = trimmed(v.text);
        if (value.empty()) {
            if (!optional) {
                fail(name, "must not be empty");
            }
            return std::nullopt;
        }
        if (value.size() > max || has_control(value)) {
            fail(name, "must be at most " + std::to_string(max) + " characters without control characters");
            return std::nullopt;
        }
        return value;
    }

    void fail(std::string_view name, const std::string& what) {
        problems.push_back(
            {"shippingAddress." + std::string(name), "shippingAddress." + std::string(name) + " " + what}
        );
    }

    std::vector<address_problem> problems;

  private:
    const input_fields& fields_;
};

bool is_alnum(char c) noexcept {
    return (c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z');
}

}  // namespace

boost::system::result<shipping_address, std::vector<address_problem>> read_shipping_address(
    const input_fields& fields
) {
    reader in(fields);
    shipping_address out;
    out.name = in.text("name", max_address_name_length).value_or("");
    out.line1 = in.text("line1", max_address_line_length).value_or("");
    out.line2 = in.text("line2", max_address_line_length, true);
    out.city = in.text("city", max_city_length).value_or("");
    if (auto postal = in.text("postalCode", max_postal_code_length)) {
        bool alnum = false;
        bool allowed = true;
        for (const char c : *postal) {
            alnum = alnum || is_alnum(c);
            allowed = allowed && (is_alnum(c) || c == ' ' || c == '-');
        }
        if (!alnum || !allowed) {
            in.fail("postalCode", "must be letters, digits, spaces or dashes");
        }
        out.postal_code = std::move(*postal);
    }
    if (auto country = in.text("country", 2)) {
        bool letters = country->size() == 2;
        for (auto& c : *country) {
            letters = letters && ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z'));
            c = static_cast<char>(c >= 'a' && c <= 'z' ? c - 'a' + 'A' : c);
        }
        if (!letters) {
            in.fail("country", "must be a two-letter ISO 3166-1 country code");
        }
        out.country = std::move(*country);
    }
    if (!in.problems.empty()) {
        return std::move(in.problems);
    }
    return out;
}

}  // namespace storefront::core
