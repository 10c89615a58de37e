// A hand-written RFC 8259 reader restricted to one flat object (string, integer and boolean members), and
// the string escaper the JWT writer uses. Strictness keeps tokens from carrying ambiguous JSON.

#include "core/flat_json.hpp"

#include <charconv>
#include <cstddef>
#include <cstdint>
#include <cstring>

namespace storefront::core {
namespace {

constexpr std::size_t max_members = 32;

void append_utf8(std::string& out, std::uint32_t cp) {
    if (cp < 0x80) {
        out.push_back(static_cast<char>(cp));
    } else if (cp < 0x800) {
        out.push_back(static_cast<char>(0xC0 | (cp >> 6)));
        out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    } else if (cp < 0x10000) {
        out.push_back(static_cast<char>(0xE0 | (cp >> 12)));
        out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
        out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    } else {
        out.push_back(static_cast<char>(0xF0 | (cp >> 18)));
        out.push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
        out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
        out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    }
}

class parser {
  public:
    explicit parser(std::string_view text) : text_(text) {}

    std::optional<flat_object> object() {
        skip_ws();
        if (!consume('{')) {
            return std::nullopt;
        }
        flat_object members;
        skip_ws();
        if (!consume('}')) {
            for (;;) {
                skip_ws();
                auto key = string();
                if (!key) {
                    return std::nullopt;
                }
                skip_ws();
                if (!consume(':')) {
                    return std::nullopt;
                }
                skip_ws();
                auto val = value();
                if (!val) {
                    return std::nullopt;
                }
                if (members.size() == max_members || members.contains(*key)) {
                    return std::nullopt;
                }
                members.emplace(std::move(*key), std::move(*val));
                skip_ws();
                if (consume('}')) {
                    break;
                }
                if (!consume(',')) {
                    return std::nullopt;
                }
            }
        }
        skip_ws();
        if (pos_ != text_.size()) {
            return std::nullopt;
        }
        return members;
    }

  private:
    bool at_end() const { return pos_ >= text_.size(); }
    unsigned char peek() const { return static_cast<unsigned char>(text_[pos_]); }

    bool consume(char c) {
        if (!at_end() && text_[pos_] == c) {
            ++pos_;
            return true;
        }
        return false;
    }

    bool consume_word(std::string_view word) {
        if (text_.substr(pos_, word.size()) == word) {
            pos_ += word.size();
            return true;
        }
        return false;
    }

    void skip_ws() {
        while (!at_end() && (peek() == ' ' || peek() == '\t' || peek() == '\n' || peek() == '\r')) {
            ++pos_;
        }
    }

    std::optional<flat_value> value() {
        if (at_end()) {
            return std::nullopt;
        }
        const unsigned char c = peek();
        if (c == '"') {
            auto s = string();
            if (!s) {
                return std::nullopt;
            }
            return flat_value{std::move(*s)};
        }
        if (c == '-' || (c >= '0' && c <= '9')) {
            return integer();
        }
        if (consume_word("true")) {
            return flat_value{true};
        }
        if (consume_word("false")) {
            return flat_value{false};
        }
        return std::nullopt;
    }

    // -?(0|[1-9][0-9]*) with no fraction or exponent, within int64.
    std::optional<flat_value> integer() {
        const std::size_t start = pos_;
        consume('-');
        if (at_end() || peek() < '0' || peek() > '9') {
            return std::nullopt;
        }
        if (peek() == '0') {
            ++pos_;
        } else {
            while (!at_end() && peek() >= '0' && peek() <= '9') {
                ++pos_;
            }
        }
        if (!at_end() &&
            (peek() == '.' || peek() == 'e' || peek() == 'E' || (peek() >= '0' && peek() <= '9'))) {
            return std::nullopt;  // fraction, exponent, or a leading zero
        }
        std::int64_t n = 0;
        const char* first = text_.data() + start;
        const char* last = text_.data() + pos_;
        const auto [ptr, ec] = std::from_chars(first, last, n);
        if (ec != std::errc{} || ptr != last) {
            return std::nullopt;
        }
        return flat_value{n};
    }

    std::optional<std::uint32_t> hex4() {
        if (text_.size() - pos_ < 4) {
            return std::nullopt;
        }
        std::uint32_t v = 0;
        for (int i = 0; i < 4; ++i) {
            const unsigned char c = peek();
            ++pos_;
            v <<= 4;
            if (c >= '0' && c <= '9') {
                v |= c - '0';
            } else if (c >= 'a' && c <= 'f') {
                v |= c - 'a' + 10;
            } else if (c >= 'A' && c <= 'F') {
                v |= c - 'A' + 10;
            } else {
                return std::nullopt;
            }
        }
        return v;
    }

    // After a backslash.
    bool escape(std::string& out) {
        if (at_end()) {
            return false;
        }
        const char c = text_[pos_++];
        // The one-letter escapes of RFC 8259 §7, and what each stands for; "\u" is read below.
        constexpr std::string_view letters = "\"\\/bfnrt";
        constexpr std::string_view meanings = "\"\\/\b\f\n\r\t";
        if (const std::size_t at = letters.find(c); at != std::string_view::npos) {
            out.push_back(meanings[at]);
            return true;
        }
        if (c != 'u') {
            return false;
        }
        auto cp = hex4();
        if (!cp) {
            return false;
        }
        if (*cp >= 0xDC00 && *cp <= 0xDFFF) {
            return false;  // lone low surrogate
        }
        if (*cp >= 0xD800 && *cp <= 0xDBFF) {
            if (!consume_word("\\u")) {
                return false;  // lone high surrogate
            }
            auto low = hex4();
            if (!low || *low < 0xDC00 || *low > 0xDFFF) {
                return false;
            }
            *cp = 0x10000 + ((*cp - 0xD800) << 10) + (*low - 0xDC00);
        }
        append_utf8(out, *cp);
        return true;
    }

    // One well-formed UTF-8 sequence starting with a non-ASCII lead byte (RFC 3629 table 3-7).
    bool utf8_sequence(std::string& out) {
        const unsigned char lead = peek();
        std::size_t len = 0;
        unsigned char lo = 0x80;
        unsigned char hi = 0xBF;
        if (lead >= 0xC2 && lead <= 0xDF) {
            len = 2;
        } else if (lead >= 0xE0 && lead <= 0xEF) {
            len = 3;
            if (lead == 0xE0) {
                lo = 0xA0;  // overlong
            } else if (lead == 0xED) {
                hi = 0x9F;  // surrogates
            }
        } else if (lead >= 0xF0 && lead <= 0xF4) {
            len = 4;
            if (lead == 0xF0) {
                lo = 0x90;  // overlong
            } else if (lead == 0xF4) {
                hi = 0x8F;  // above U+10FFFF
            }
        } else {
            return false;
        }
        if (text_.size() - pos_ < len) {
            return false;
        }
        for (std::size_t i = 1; i < len; ++i) {
            const auto c = static_cast<unsigned char>(text_[pos_ + i]);
            const unsigned char min = i == 1 ? lo : 0x80;
            const unsigned char max = i == 1 ? hi : 0xBF;
            if (c < min || c > max) {
                return false;
            }
        }
        out.append(text_.substr(pos_, len));
        pos_ += len;
        return true;
    }

    std::optional<std::string> string() {
        if (!consume('"')) {
            return std::nullopt;
        }
        std::string out;
        for (;;) {
            if (at_end()) {
                return std::nullopt;
            }
            const unsigned char c = peek();
            if (c == '"') {
                ++pos_;
                return out;
            }
            if (c == '\\') {
                ++pos_;
                if (!escape(out)) {
                    return std::nullopt;
                }
            } else if (c < 0x20) {
                return std::nullopt;
            } else if (c < 0x80) {
                out.push_back(static_cast<char>(c));
                ++pos_;
            } else if (!utf8_sequence(out)) {
                return std::nullopt;
            }
        }
    }

    std::string_view text_;
    std::size_t pos_ = 0;
};

}  // namespace

std::optional<flat_object> parse_flat_json(std::string_view text) {
    return parser{text}.object();
}

namespace {

// Whether any of the 8 bytes in `w` is a control character, '"' or '\\' (the bytes JSON must escape),
// tested on all 8 at once with the classic has-zero-byte / has-less-than bit tricks.
constexpr bool any_to_escape(std::uint64_t w) noexcept {
    constexpr std::uint64_t ones = 0x0101010101010101ULL;
    constexpr std::uint64_t highs = 0x8080808080808080ULL;
    const std::uint64_t quote = w ^ (ones * '"');
    const std::uint64_t backslash = w ^ (ones * '\\');
    const std::uint64_t found = ((w - ones * 0x20) | (quote - ones) | (backslash - ones)) & ~w & highs;
    // (x - ones) & ~x & highs is non-zero iff some byte of x is zero; ~w also rules out bytes >= 0x80,
    // which never need escaping (UTF-8 passes through) and would otherwise look like matches.
    return found != 0;
}

}  // namespace

// Appends `text` quoted and escaped; runs of bytes that need no escape are appended in one go, so the
// common case is one append per string and no allocation beyond the output's growth.
void append_json_string(std::string& out, std::string_view text) {
    static constexpr char hex[] = "0123456789abcdef";
    out += '"';
    std::size_t run = 0;
    std::size_t i = 0;
    while (i < text.size()) {
        if (i + 8 <= text.size()) {
            std::uint64_t word;
            std::memcpy(&word, text.data() + i, sizeof word);
            if (!any_to_escape(word)) {
                i += 8;
                continue;
            }
        }
        const auto c = static_cast<unsigned char>(text[i]);
        if (c >= 0x20 && c != '"' && c != '\\') {
            ++i;
            continue;
        }
        out.append(text.data() + run, i - run);
        ++i;
        run = i;
        switch (c) {
            case '"':
                out += "\\\"";
                break;
            case '\\':
                out += "\\\\";
                break;
            case '\b':
                out += "\\b";
                break;
            case '\f':
                out += "\\f";
                break;
            case '\n':
                out += "\\n";
                break;
            case '\r':
                out += "\\r";
                break;
            case '\t':
                out += "\\t";
                break;
            default:
                out += "\\u00";
                out += hex[c >> 4];
                out += hex[c & 0xF];
        }
    }
    out.append(text.data() + run, text.size() - run);
    out += '"';
}

std::string write_json_string(std::string_view text) {
    std::string out;
    out.reserve(text.size() + 2);
    append_json_string(out, text);
    return out;
}

}  // namespace storefront::core
