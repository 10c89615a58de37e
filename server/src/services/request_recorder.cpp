// The request inspector's records: redaction, cutting, the JSON of a record, and the per-sandbox rings.

#include "server/services/request_recorder.hpp"

#include <algorithm>

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <boost/json/value.hpp>

#include "core/text.hpp"
#include "server/codec/json_writer.hpp"

namespace storefront::server {

namespace {

namespace json = boost::json;

// JSON bodies up to this size are parsed to redact their secret fields; larger ones naming one are withheld.
constexpr std::size_t max_parsed_body = 256 * 1024;

// A form or query name as its receiver reads it ('+' is a space, %XX a byte; a bad escape stays).
std::string form_decoded(std::string_view text) {
    std::string out;
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (text[i] == '+') {
            out.push_back(' ');
        } else if (text[i] == '%' && i + 2 < text.size() && core::hex_digit_value(text[i + 1]) >= 0 && core::hex_digit_value(text[i + 2]) >= 0) {
            out.push_back(static_cast<char>(
                core::hex_digit_value(text[i + 1]) * 16 + core::hex_digit_value(text[i + 2])
            ));
            i += 2;
        } else {
            out.push_back(text[i]);
        }
    }
    return out;
}

// `form` (a=b&c=d) with the values of the parameters `secret` names replaced.
template <class Secret>
std::string redact_pairs(std::string_view form, Secret secret) {
    std::string out;
    std::size_t start = 0;
    while (start <= form.size()) {
        const std::size_t amp = std::min(form.find('&', start), form.size());
        const std::string_view pair = form.substr(start, amp - start);
        const std::size_t eq = pair.find('=');
        const std::string_view name = pair.substr(0, eq);
        if (eq != std::string_view::npos && secret(form_decoded(name))) {
            out.append(name).append("=").append(redacted_value);
        } else {
            out.append(pair);
        }
        if (amp < form.size()) {
            out.push_back('&');
        }
        start = amp + 1;
    }
    return out;
}

// Replaces the secret values under `v` (in place); true when one was replaced. `in_card`: `v` is the
// value of a "card" field, whose number is a secret too.
bool redact_json(json::value& v, bool in_card = false) {
    bool changed = false;
    if (auto* object = v.if_object()) {
        for (auto& [key, value] : *object) {
            const std::string_view name(key.data(), key.size());
            if (secret_field(name) || (in_card && core::ascii_iequals(name, "number")) ||
                core::ascii_iequals(name, "cardNumber")) {
                if (!(value.is_string() && value.get_string() == redacted_value)) {
                    value = json::string(redacted_value);
                    changed = true;
                }
            } else {
                changed = redact_json(value, core::ascii_iequals(name, "card")) || changed;
            }
        }
    } else if (auto* array = v.if_array()) {
        for (auto& item : *array) {
            changed = redact_json(item) || changed;
        }
    }
    return changed;
}

// Whether `text` names a secret field anywhere (a JSON body that does not parse is withheld then).
bool mentions_secret(std::string_view text) {
    const std::string l = core::ascii_lower(text);
    for (const std::string_view word :
         {"password", "token", "secret", "api_key", "apikey", "cvc", "cvv", "card", "number"}) {
        if (l.find(word) != std::string::npos) {
            return true;
        }
    }
    return false;
}

bool valid_utf8(std::string_view s) {
    std::size_t i = 0;
    while (i < s.size()) {
        const auto c = static_cast<unsigned char>(s[i]);
        std::size_t n = 0;
        std::uint32_t cp = 0;
        if (c < 0x80) {
            ++i;
            continue;
        }
        if ((c & 0xE0) == 0xC0) {
            n = 1;
            cp = c & 0x1F;
        } else if ((c & 0xF0) == 0xE0) {
            n = 2;
            cp = c & 0x0F;
        } else if ((c & 0xF8) == 0xF0) {
            n = 3;
            cp = c & 0x07;
        } else {
            return false;
        }
        if (i + n >= s.size()) {
            return false;
        }
        for (std::size_t k = 1; k <= n; ++k) {
            const auto d = static_cast<unsigned char>(s[i + k]);
            if ((d & 0xC0) != 0x80) {
                return false;
            }
            cp = (cp << 6) | (d & 0x3F);
        }
        const bool overlong = (n == 1 && cp < 0x80) || (n == 2 && cp < 0x800) || (n == 3 && cp < 0x10000);
        if (overlong || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) {
            return false;
        }
        i += n + 1;
    }
    return true;
}

// The longest prefix of `s` of at most `limit` bytes that does not split a UTF-8 sequence.
std::string_view utf8_prefix(std::string_view s, std::size_t limit) {
    if (s.size() <= limit) {
        return s;
    }
    std::size_t end = limit;
    while (end > 0 && (static_cast<unsigned char>(s[end]) & 0xC0) == 0x80) {
        --end;
    }
    return s.substr(0, end);
}

std::string base64(std::string_view bytes) {
    static constexpr char alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    std::string out;
    out.reserve((bytes.size() + 2) / 3 * 4);
    std::size_t i = 0;
    for (; i + 2 < bytes.size(); i += 3) {
        const auto n = (static_cast<std::uint32_t>(static_cast<unsigned char>(bytes[i])) << 16) |
                       (static_cast<std::uint32_t>(static_cast<unsigned char>(bytes[i + 1])) << 8) |
                       static_cast<unsigned char>(bytes[i + 2]);
        out.push_back(alphabet[(n >> 18) & 63]);
        out.push_back(alphabet[(n >> 12) & 63]);
        out.push_back(alphabet[(n >> 6) & 63]);
        out.push_back(alphabet[n & 63]);
    }
    if (i < bytes.size()) {
        std::uint32_t n = static_cast<std::uint32_t>(static_cast<unsigned char>(bytes[i])) << 16;
        if (i + 1 < bytes.size()) {
            n |= static_cast<std::uint32_t>(static_cast<unsigned char>(bytes[i + 1])) << 8;
        }
        out.push_back(alphabet[(n >> 18) & 63]);
        out.push_back(alphabet[(n >> 12) & 63]);
        out.push_back(i + 1 < bytes.size() ? alphabet[(n >> 6) & 63] : '=');
        out.push_back('=');
    }
    return out;
}

void write_headers(json_writer& w, const header_list& headers) {
    // Names in order of first appearance, repeated ones joined.
    std::vector<std::pair<std::string, std::string>> joined;
    for (const auto& [name, value] : headers) {
        const std::string key = core::ascii_lower(name);
        auto found =
            std::find_if(joined.begin(), joined.end(), [&](const auto& p) { return p.first == key; });
        if (found == joined.end()) {
            joined.emplace_back(key, value);
        } else {
            found->second.append(", ").append(value);
        }
    }
    w.begin_object();
    for (const auto& [name, value] : joined) {
        w.key(name).value(value);
    }
    w.end_object();
}

void write_body(json_writer& w, const recorded_body& b) {
    w.key("body").value(b.text);
    w.key("bodyBase64").value(b.base64);
    w.key("bodyTruncated").value(b.truncated);
    w.key("bodySize").value(static_cast<std::int64_t>(b.size));
}

}  // namespace

bool secret_header(std::string_view name) {
    const std::string l = core::ascii_lower(name);
    return l == "authorization" || l == "proxy-authorization" || l == "cookie" || l == "set-cookie" ||
           l == "api_key" || l == "api-key" || l == "x-api-key";
}

bool secret_field(std::string_view name) {
    const std::string l = core::ascii_lower(name);
    return l.find("password") != std::string::npos || l.find("token") != std::string::npos ||
           l.find("secret") != std::string::npos || l == "api_key" || l == "apikey" || l == "cvc" ||
           l == "cvv";
}

std::string redact_query(std::string_view query) {
    return redact_pairs(query, [](const std::string& name) { return secret_field(name); });
}

recorded_body record_body(std::string_view bytes, std::string_view content_type) {
    recorded_body out;
    out.size = bytes.size();
    if (bytes.empty()) {
        return out;
    }
    const std::string type = core::ascii_lower(content_type);
    std::string redacted;
    std::string_view kept = bytes;
    const auto first = bytes.find_first_not_of(" \t\r\n");
    const bool json_typed = type.find("json") != std::string::npos;
    const bool looks_json = first != std::string_view::npos && (bytes[first] == '{' || bytes[first] == '[');
    if (json_typed || looks_json) {
        // Parsed only when a secret field's name occurs at all, and only up to max_parsed_body bytes: a
        // sandbox's large list answers cost a scan, not a parse, per request.
        if (mentions_secret(bytes)) {
            boost::system::error_code ec;
            json::value v = bytes.size() <= max_parsed_body ? json::parse(bytes, ec) : json::value();
            if (bytes.size() > max_parsed_body || ec) {
                out.text =
                    "[withheld: a JSON body too large to redact or that does not parse, and may hold a "
                    "secret]";
                return out;
            }
            if (redact_json(v)) {
                redacted = json::serialize(v);
                kept = redacted;
            }
        }
    } else if (type.starts_with("application/x-www-form-urlencoded")) {
        redacted = redact_pairs(bytes, [](const std::string& name) { return secret_field(name); });
        kept = redacted;
    } else if (type.starts_with("multipart/") && core::ascii_lower(bytes).find("password") != std::string::npos) {
        // Parts are not parsed here: a multipart body naming a password field is withheld whole.
        out.text = "[withheld: a multipart body with a password field]";
        return out;
    }
    // Text or binary by what is kept: a large answer is not scanned beyond its first 4 KiB.
    const std::string_view cut = utf8_prefix(kept, recorded_body_limit);
    if (valid_utf8(cut)) {
        out.text.assign(cut);
        out.truncated = cut.size() < kept.size();
    } else {
        out.base64 = true;
        out.truncated = kept.size() > recorded_body_limit;
        out.text = base64(kept.substr(0, recorded_body_limit));
    }
    return out;
}

header_list record_headers(header_list headers) {
    for (auto& [name, value] : headers) {
        if (secret_header(name)) {
            value = redacted_value;
        }
    }
    return headers;
}

std::string record_json(const request_record& r) {
    std::string out;
    json_writer w(out);
    w.begin_object();
    w.key("at").value(iso8601_ms(r.at_ms));
    w.key("method").value(r.method);
    w.key("path").value(r.path);
    w.key("query").value(r.query);
    w.key("headers");
    write_headers(w, r.headers);
    write_body(w, r.body);
    w.key("status").value(static_cast<std::int64_t>(r.status));
    w.key("durationMs").value(r.duration_ms);
    w.key("response").begin_object();
    w.key("headers");
    write_headers(w, r.response_headers);
    write_body(w, r.response_body);
    w.end_object();
    w.end_object();
    return out;
}

record_follower::batch record_follower::take() {
    std::lock_guard lock(mutex_);
    batch out;
    out.records.assign(queue_.begin(), queue_.end());
    queue_.clear();
    out.overflowed = overflowed_;
    out.closed = closed_;
    return out;
}

void record_follower::offer(const std::shared_ptr<const std::string>& json, std::size_t limit) {
    {
        std::lock_guard lock(mutex_);
        if (overflowed_ || closed_) {
            return;
        }
        if (queue_.size() >= limit) {
            overflowed_ = true;
        } else {
            queue_.push_back(json);
        }
    }
    wake_();
}

void record_follower::finish() {
    {
        std::lock_guard lock(mutex_);
        closed_ = true;
    }
    wake_();
}

void request_log::add(const request_record& r) {
    auto json = std::make_shared<const std::string>(record_json(r));
    std::lock_guard lock(mutex_);
    records_.push_back(json);
    while (records_.size() > capacity_) {
        records_.pop_front();
    }
    for (const auto& f : followers_) {
        f->offer(json, follower_queue_);
    }
}

std::string request_log::newest_json(std::size_t limit) const {
    std::lock_guard lock(mutex_);
    std::string out = "[";
    std::size_t n = 0;
    for (auto it = records_.rbegin(); it != records_.rend() && n < limit; ++it, ++n) {
        if (n > 0) {
            out.push_back(',');
        }
        out.append(**it);
    }
    out.push_back(']');
    return out;
}

std::size_t request_log::size() const {
    std::lock_guard lock(mutex_);
    return records_.size();
}

void request_log::clear() {
    std::lock_guard lock(mutex_);
    records_.clear();
}

std::shared_ptr<record_follower> request_log::follow(std::function<void()> wake) {
    auto f = std::make_shared<record_follower>(std::move(wake));
    std::lock_guard lock(mutex_);
    followers_.push_back(f);
    return f;
}

void request_log::unfollow(const std::shared_ptr<record_follower>& f) {
    std::lock_guard lock(mutex_);
    std::erase(followers_, f);
}

void request_log::close_followers() {
    std::lock_guard lock(mutex_);
    for (const auto& f : followers_) {
        f->finish();
    }
    followers_.clear();
}

void request_log::relay(const std::shared_ptr<const std::string>& json) {
    std::lock_guard lock(mutex_);
    for (const auto& f : followers_) {
        f->offer(json, follower_queue_);
    }
}

bool request_log::followed() const {
    std::lock_guard lock(mutex_);
    return !followers_.empty();
}

std::shared_ptr<request_log> request_logs::of(std::string_view sandbox) {
    std::shared_ptr<request_log> evicted;
    std::shared_ptr<request_log> log;
    {
        std::lock_guard lock(mutex_);
        auto found = logs_.find(sandbox);
        if (found == logs_.end()) {
            if (logs_.size() >= max_logs_ && !logs_.empty()) {
                auto oldest = std::min_element(logs_.begin(), logs_.end(), [](const auto& a, const auto& b) {
                    return a.second.used < b.second.used;
                });
                evicted = oldest->second.log;
                logs_.erase(oldest);
            }
            found =
                logs_.emplace(std::string(sandbox), entry{std::make_shared<request_log>(capacity_)}).first;
        }
        found->second.used = ++clock_;
        log = found->second.log;
    }
    if (evicted) {
        evicted->close_followers();
    }
    return log;
}

std::shared_ptr<request_log> request_logs::find(std::string_view sandbox) const {
    std::lock_guard lock(mutex_);
    const auto found = logs_.find(sandbox);
    return found == logs_.end() ? nullptr : found->second.log;
}

void request_logs::add(std::string_view sandbox, const request_record& r) {
    if (shared_) {
        add_shared(sandbox, r);
        return;
    }
    of(sandbox)->add(r);
}

std::string request_logs::newest_json(std::string_view sandbox, std::size_t limit) const {
    if (shared_) {
        return newest_shared_json(sandbox, limit);
    }
    const auto log = find(sandbox);
    return log ? log->newest_json(limit) : "[]";
}

void request_logs::clear(std::string_view sandbox) {
    if (shared_) {
        shared_->trim(shared_data_set(sandbox), 0);
    }
    if (const auto log = find(sandbox)) {
        log->clear();
    }
}

std::shared_ptr<request_log> request_logs::followed_log(std::string_view sandbox) {
    auto log = of(sandbox);
    if (shared_) {
        prime(sandbox, *log);
    }
    return log;
}

void request_logs::drop(std::string_view sandbox) {
    if (shared_) {
        try {
            shared_->trim(shared_data_set(sandbox), 0);  // its records go with the sandbox
        } catch (const std::exception&) {  // the database is down: they stay bounded, and go with the next
                                           // reset
        }
    }
    std::shared_ptr<request_log> dropped;
    {
        std::lock_guard lock(mutex_);
        auto found = logs_.find(sandbox);
        if (found == logs_.end()) {
            return;
        }
        dropped = found->second.log;
        logs_.erase(found);
    }
    dropped->close_followers();
}

void request_logs::close_all() {
    std::vector<std::shared_ptr<request_log>> all;
    {
        std::lock_guard lock(mutex_);
        for (const auto& [id, e] : logs_) {
            all.push_back(e.log);
        }
    }
    for (const auto& log : all) {
        log->close_followers();
    }
}

std::size_t request_logs::log_count() const {
    std::lock_guard lock(mutex_);
    return logs_.size();
}

}  // namespace storefront::server
