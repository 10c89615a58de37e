// Pet store rules without I/O: enum names, the findBy* query filters, RFC 3339 parsing, usernames and
// image type sniffing. Everything here is a pure function of its input.

#include "core/pet_rules.hpp"

#include <algorithm>
#include <chrono>

#include "core/enum_names.hpp"
#include "core/text.hpp"

namespace storefront::core {

namespace {

constexpr enum_name<pet_status> pet_status_names[] = {
    {pet_status::available, "available"},
    {pet_status::pending, "pending"},
    {pet_status::sold, "sold"},
};

constexpr enum_name<order_status> order_status_names[] = {
    {order_status::placed, "placed"},
    {order_status::approved, "approved"},
    {order_status::delivered, "delivered"},
};

// Calls `each` with every non-empty comma-separated item of every value of parameter `name`.
template <class Each>
void for_each_item(const query_params& params, std::string_view name, Each&& each) {
    for (const auto& p : params) {
        if (p.name != name) {
            continue;
        }
        std::string_view rest = p.value;
        while (true) {
            const auto comma = rest.find(',');
            const std::string_view item = rest.substr(0, comma);
            if (!each(item)) {
                return;
            }
            if (comma == std::string_view::npos) {
                break;
            }
            rest.remove_prefix(comma + 1);
        }
    }
}

// The value of `count` digits at `text[at]`, or -1 if they are not all digits.
int digits_at(std::string_view text, std::size_t at, std::size_t count) noexcept {
    if (at + count > text.size()) {
        return -1;
    }
    int value = 0;
    for (std::size_t i = at; i < at + count; ++i) {
        if (!is_ascii_digit(text[i])) {
            return -1;
        }
        value = value * 10 + (text[i] - '0');
    }
    return value;
}

bool starts_with_bytes(std::string_view bytes, std::string_view magic) noexcept {
    return bytes.substr(0, magic.size()) == magic;
}

}  // namespace

std::string_view to_string(pet_status status) noexcept {
    return name_of(pet_status_names, status, "available");
}

std::string_view to_string(order_status status) noexcept {
    return name_of(order_status_names, status, "placed");
}

std::optional<pet_status> parse_pet_status(std::string_view text) noexcept {
    return value_named(pet_status_names, text);
}

std::optional<order_status> parse_order_status(std::string_view text) noexcept {
    return value_named(order_status_names, text);
}

validated<std::vector<pet_status>> parse_status_filter(const query_params& params) {
    std::vector<pet_status> wanted;
    std::optional<std::string> bad;
    bool any = false;
    for_each_item(params, "status", [&](std::string_view item) {
        any = true;
        const auto status = parse_pet_status(item);
        if (!status) {
            bad = std::string(item);
            return false;
        }
        if (std::find(wanted.begin(), wanted.end(), *status) == wanted.end()) {
            wanted.push_back(*status);
        }
        return true;
    });
    if (bad) {
        return validation_errors{
            {"Input error: query parameter `status` value `" + *bad +
             "` is not in the allowable values `[available, pending, sold]`"}};
    }
    if (!any) {
        wanted.push_back(pet_status::available);
    }
    return wanted;
}

validated<std::vector<std::string>> parse_tag_filter(const query_params& params) {
    std::vector<std::string> tags;
    for_each_item(params, "tags", [&](std::string_view item) {
        if (!item.empty() && std::find(tags.begin(), tags.end(), item) == tags.end()) {
            tags.emplace_back(item);
        }
        return true;
    });
    if (tags.empty()) {
        return validation_errors{{"tags is required"}};
    }
    // In place: validation_errors is an aggregate of a vector of strings, so a bare return is ambiguous.
    return validated<std::vector<std::string>>(boost::system::in_place_value, std::move(tags));
}

std::optional<timestamp_ms> parse_date_time(std::string_view text) noexcept {
    // YYYY-MM-DDTHH:MM:SS
    if (text.size() < 20 || text[4] != '-' || text[7] != '-' || (text[10] != 'T' && text[10] != 't') ||
        text[13] != ':' || text[16] != ':') {
        return std::nullopt;
    }
    const int year = digits_at(text, 0, 4);
    const int month = digits_at(text, 5, 2);
    const int day = digits_at(text, 8, 2);
    const int hour = digits_at(text, 11, 2);
    const int minute = digits_at(text, 14, 2);
    const int second = digits_at(text, 17, 2);
    if (year < 0 || month < 1 || month > 12 || day < 1 || hour < 0 || hour > 23 || minute < 0 ||
        minute > 59 || second < 0 || second > 60) {
        return std::nullopt;
    }
    const std::chrono::year_month_day ymd{
        std::chrono::year(year),
        std::chrono::month(static_cast<unsigned>(month)),
        std::chrono::day(static_cast<unsigned>(day))};
    if (!ymd.ok()) {
        return std::nullopt;
    }
    std::size_t at = 19;
    std::int64_t millis = 0;
    if (at < text.size() && text[at] == '.') {
        ++at;
        const std::size_t first = at;
        while (at < text.size() && is_ascii_digit(text[at])) {
            if (at - first < 3) {
                millis = millis * 10 + (text[at] - '0');
            }
            ++at;
        }
        if (at == first || at - first > 9) {
            return std::nullopt;
        }
        for (std::size_t n = at - first; n < 3; ++n) {
            millis *= 10;
        }
    }
    std::int64_t offset_minutes = 0;
    const std::string_view zone = text.substr(at);
    if (zone == "Z" || zone == "z") {
        offset_minutes = 0;
    } else if (zone.size() == 6 && (zone[0] == '+' || zone[0] == '-') && zone[3] == ':') {
        const int oh = digits_at(zone, 1, 2);
        const int om = digits_at(zone, 4, 2);
        if (oh < 0 || oh > 23 || om < 0 || om > 59) {
            return std::nullopt;
        }
        offset_minutes = (zone[0] == '-' ? -1 : 1) * (oh * 60 + om);
    } else {
        return std::nullopt;
    }
    const std::int64_t days = std::chrono::sys_days(ymd).time_since_epoch().count();
    const std::int64_t seconds =
        days * 86400 + hour * 3600 + minute * 60 + std::min(second, 59) - offset_minutes * 60;
    return seconds * 1000 + millis;
}

bool valid_username(std::string_view text) noexcept {
    if (text.empty() || text.size() > 64) {
        return false;
    }
    return std::all_of(text.begin(), text.end(), [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || is_ascii_digit(c) || c == '.' ||
               c == '_' || c == '-' || c == '@' || c == '+';
    });
}

std::string_view sniff_image_type(std::string_view bytes) noexcept {
    using namespace std::string_view_literals;
    if (starts_with_bytes(bytes, "\x89PNG\r\n\x1a\n"sv)) {
        return "image/png";
    }
    if (starts_with_bytes(bytes, "\xff\xd8\xff"sv)) {
        return "image/jpeg";
    }
    if (starts_with_bytes(bytes, "GIF87a"sv) || starts_with_bytes(bytes, "GIF89a"sv)) {
        return "image/gif";
    }
    if (bytes.size() >= 12 && starts_with_bytes(bytes, "RIFF"sv) && bytes.substr(8, 4) == "WEBP"sv) {
        return "image/webp";
    }
    return "application/octet-stream";
}

bool pet_upload_type_allowed(std::string_view media_type) noexcept {
    return media_type.empty() || media_type == "application/octet-stream" || media_type == "image/png" ||
           media_type == "image/jpeg" || media_type == "image/gif" || media_type == "image/webp";
}

std::string pet_image_media_type(std::string_view declared, std::string_view bytes) {
    if (declared.empty() || declared == "application/octet-stream") {
        return std::string(sniff_image_type(bytes));
    }
    return std::string(declared);
}

}  // namespace storefront::core
