// The GraphQL lexer (spec section 2.1): punctuators, names, numbers, strings and block strings, with
// 1-based line and column (in code points) and graphql-js's error wording.

#include "graphql/lexer.hpp"

#include <cstdint>
#include <iterator>

#include "core/enum_names.hpp"
#include "source_text.hpp"

namespace storefront::graphql {
namespace {

using detail::append_utf8;
using detail::block_string_value;
using detail::print_char;
using detail::utf8_length;

bool is_name_start(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}
bool is_digit(char c) {
    return c >= '0' && c <= '9';
}
bool is_name_continue(char c) {
    return is_name_start(c) || is_digit(c);
}

class scanner final {
  public:
    scanner(std::string_view source, std::size_t max_tokens) : src_(source), max_tokens_(max_tokens) {}

    std::vector<token> run() {
        std::vector<token> tokens;
        while (true) {
            skip_ignored();
            token t = next();
            const bool end = t.kind == token_kind::eof;
            tokens.push_back(std::move(t));
            if (end) {
                return tokens;
            }
            if (tokens.size() > max_tokens_) {
                fail(
                    "Document contains more than " + std::to_string(max_tokens_) +
                        " tokens. Parsing aborted.",
                    tokens.back().where
                );
            }
        }
    }

  private:
    [[noreturn]] void fail(const std::string& message, location where) const {
        throw syntax_error("Syntax Error: " + message, where);
    }
    [[noreturn]] void fail_here(const std::string& message) const { fail(message, here()); }
    location here() const { return {line_, pos_ - line_start_ + 1 - continuation_bytes_}; }
    char peek(std::size_t ahead = 0) const { return pos_ + ahead < src_.size() ? src_[pos_ + ahead] : '\0'; }
    bool at_end(std::size_t ahead = 0) const { return pos_ + ahead >= src_.size(); }

    // Moves over one code point, checking its UTF-8 and keeping the line and column.
    void advance() {
        const unsigned char c = static_cast<unsigned char>(src_[pos_]);
        if (c < 0x80) {
            ++pos_;
            return;
        }
        const std::size_t n = utf8_length(src_, pos_);
        if (n == 0) {
            fail_here("Invalid UTF-8 sequence.");
        }
        pos_ += n;
        continuation_bytes_ += n - 1;
    }
    void new_line(std::size_t length) {
        pos_ += length;
        ++line_;
        line_start_ = pos_;
        continuation_bytes_ = 0;
    }

    void skip_ignored() {
        while (!at_end()) {
            const char c = peek();
            if (c == ' ' || c == '\t' || c == ',') {
                ++pos_;
            } else if (c == '\n') {
                new_line(1);
            } else if (c == '\r') {
                new_line(peek(1) == '\n' ? 2 : 1);
            } else if (src_.substr(pos_, 3) == "\xEF\xBB\xBF") {
                pos_ += 3;
                continuation_bytes_ += 2;
            } else if (c == '#') {
                while (!at_end() && peek() != '\n' && peek() != '\r') {
                    check_source_char();
                    advance();
                }
            } else {
                return;
            }
        }
    }

    void check_source_char(const char* within = "") const {
        const unsigned char c = static_cast<unsigned char>(peek());
        if ((c < 0x20 && c != '\t') || c == 0x7F) {
            fail_here(std::string("Invalid character") + within + ": " + print_char(src_, pos_) + ".");
        }
        if (c >= 0x80 && utf8_length(src_, pos_) == 0) {
            fail_here("Invalid UTF-8 sequence.");
        }
    }

    token make(token_kind kind, std::size_t length, location where) {
        token t{kind, std::string(src_.substr(pos_, length)), where};
        pos_ += length;
        return t;
    }

    token next() {
        const location where = here();
        if (at_end()) {
            return {token_kind::eof, "", where};
        }
        const char c = peek();
        switch (c) {
            case '!':
                return make(token_kind::bang, 1, where);
            case '$':
                return make(token_kind::dollar, 1, where);
            case '&':
                return make(token_kind::amp, 1, where);
            case '(':
                return make(token_kind::paren_l, 1, where);
            case ')':
                return make(token_kind::paren_r, 1, where);
            case ':':
                return make(token_kind::colon, 1, where);
            case '=':
                return make(token_kind::equals, 1, where);
            case '@':
                return make(token_kind::at, 1, where);
            case '[':
                return make(token_kind::bracket_l, 1, where);
            case ']':
                return make(token_kind::bracket_r, 1, where);
            case '{':
                return make(token_kind::brace_l, 1, where);
            case '|':
                return make(token_kind::pipe, 1, where);
            case '}':
                return make(token_kind::brace_r, 1, where);
            case '.':
                if (peek(1) == '.' && peek(2) == '.') {
                    return make(token_kind::spread, 3, where);
                }
                break;
            case '"':
                if (peek(1) == '"' && peek(2) == '"') {
                    return block_string(where);
                }
                return string(where);
            default:
                break;
        }
        if (is_name_start(c)) {
            std::size_t n = 1;
            while (is_name_continue(peek(n))) {
                ++n;
            }
            return make(token_kind::name, n, where);
        }
        if (is_digit(c) || c == '-') {
            return number(where);
        }
        check_source_char();
        fail_here("Unexpected character: " + print_char(src_, pos_) + ".");
    }

    std::size_t digits(std::size_t at) const {
        if (!is_digit(at < src_.size() ? src_[at] : '\0')) {
            fail({line_, at - line_start_ + 1 - continuation_bytes_}, at);
        }
        while (at < src_.size() && is_digit(src_[at])) {
            ++at;
        }
        return at;
    }
    [[noreturn]] void fail(location where, std::size_t at) const {
        fail("Invalid number, expected digit but got: " + print_char(src_, at) + ".", where);
    }

    token number(location where) {
        std::size_t at = pos_;
        bool is_float = false;
        if (src_[at] == '-') {
            ++at;
        }
        if (at < src_.size() && src_[at] == '0') {
            ++at;
            if (at < src_.size() && is_digit(src_[at])) {
                fail(
                    "Invalid number, unexpected digit after 0: " + print_char(src_, at) + ".",
                    {line_, at - line_start_ + 1 - continuation_bytes_}
                );
            }
        } else {
            at = digits(at);
        }
        if (at < src_.size() && src_[at] == '.') {
            is_float = true;
            at = digits(at + 1);
        }
        if (at < src_.size() && (src_[at] == 'e' || src_[at] == 'E')) {
            is_float = true;
            ++at;
            if (at < src_.size() && (src_[at] == '+' || src_[at] == '-')) {
                ++at;
            }
            at = digits(at);
        }
        if (at < src_.size() && (src_[at] == '.' || is_name_start(src_[at]))) {
            fail({line_, at - line_start_ + 1 - continuation_bytes_}, at);
        }
        return make(is_float ? token_kind::float_value : token_kind::int_value, at - pos_, where);
    }

    int hex_value(std::size_t at) const {
        const char c = at < src_.size() ? src_[at] : '\0';
        if (c >= '0' && c <= '9') {
            return c - '0';
        }
        if (c >= 'a' && c <= 'f') {
            return c - 'a' + 10;
        }
        if (c >= 'A' && c <= 'F') {
            return c - 'A' + 10;
        }
        return -1;
    }

    // Reads \uXXXX or \u{X...} at pos_ (pointing at the backslash); returns the code point or -1.
    long read_unicode(std::size_t& length) const {
        if (peek(2) == '{') {
            long cp = 0;
            std::size_t n = 3;
            while (peek(n) != '}') {
                const int h = hex_value(pos_ + n);
                if (h < 0 || cp > 0x10FFFF) {
                    return -1;
                }
                cp = cp * 16 + h;
                ++n;
            }
            length = n + 1;
            return n == 3 || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF) ? -1 : cp;
        }
        long cp = 0;
        for (std::size_t k = 2; k < 6; ++k) {
            const int h = hex_value(pos_ + k);
            if (h < 0) {
                return -1;
            }
            cp = cp * 16 + h;
        }
        length = 6;
        return cp;
    }

    token string(location where) {
        ++pos_;
        std::string value;
        while (true) {
            if (at_end() || peek() == '\n' || peek() == '\r') {
                fail_here("Unterminated string.");
            }
            const char c = peek();
            if (c == '"') {
                ++pos_;
                return {token_kind::string_value, std::move(value), where};
            }
            if (c != '\\') {
                check_source_char(" within String");
                const std::size_t from = pos_;
                advance();
                value.append(src_.substr(from, pos_ - from));
                continue;
            }
            const location escape_at = here();
            const char e = peek(1);
            const char* simple = nullptr;
            switch (e) {
                case '"':
                    simple = "\"";
                    break;
                case '\\':
                    simple = "\\";
                    break;
                case '/':
                    simple = "/";
                    break;
                case 'b':
                    simple = "\b";
                    break;
                case 'f':
                    simple = "\f";
                    break;
                case 'n':
                    simple = "\n";
                    break;
                case 'r':
                    simple = "\r";
                    break;
                case 't':
                    simple = "\t";
                    break;
                default:
                    break;
            }
            if (simple != nullptr) {
                value += simple;
                pos_ += 2;
                continue;
            }
            if (e != 'u') {
                fail(
                    "Invalid character escape sequence: \"" +
                        std::string(src_.substr(pos_, e == '\0' ? 1 : 2)) + "\".",
                    escape_at
                );
            }
            std::size_t length = 0;
            long cp = read_unicode(length);
            const auto bad = [&](std::size_t n) {
                std::size_t end = pos_ + 1;
                while (end < src_.size() && end < pos_ + n && src_[end] != '"' && src_[end] != '\n') {
                    ++end;
                }
                fail(
                    "Invalid Unicode escape sequence: \"" + std::string(src_.substr(pos_, end - pos_)) +
                        "\".",
                    escape_at
                );
            };
            if (cp < 0) {
                bad(6);
            }
            if (cp >= 0xD800 && cp <= 0xDBFF) {
                // A leading surrogate must be followed by an escaped trailing one.
                const std::size_t first = pos_;
                pos_ += length;
                std::size_t trail_length = 0;
                const long trail = peek() == '\\' && peek(1) == 'u' ? read_unicode(trail_length) : -1;
                pos_ = first;
                if (trail < 0xDC00 || trail > 0xDFFF) {
                    bad(length);
                }
                cp = 0x10000 + ((cp - 0xD800) << 10) + (trail - 0xDC00);
                length += trail_length;
            } else if (cp >= 0xDC00 && cp <= 0xDFFF) {
                bad(length);
            }
            append_utf8(value, static_cast<std::uint32_t>(cp));
            pos_ += length;
        }
    }

    token block_string(location where) {
        pos_ += 3;
        std::string raw;
        while (true) {
            if (at_end()) {
                fail_here("Unterminated string.");
            }
            const char c = peek();
            if (c == '"' && peek(1) == '"' && peek(2) == '"') {
                pos_ += 3;
                return {token_kind::block_string, block_string_value(raw), where};
            }
            if (c == '\\' && src_.substr(pos_ + 1, 3) == "\"\"\"") {
                raw += "\"\"\"";
                pos_ += 4;
            } else if (c == '\n' || c == '\r') {
                const std::size_t length = c == '\r' && peek(1) == '\n' ? 2 : 1;
                raw.append(src_.substr(pos_, length));
                new_line(length);
            } else {
                check_source_char(" within String");
                const std::size_t from = pos_;
                advance();
                raw.append(src_.substr(from, pos_ - from));
            }
        }
    }

    std::string_view src_;
    std::size_t max_tokens_;
    std::size_t pos_ = 0;
    std::size_t line_ = 1;
    std::size_t line_start_ = 0;
    std::size_t continuation_bytes_ = 0;
};

}  // namespace

// How an error message names each kind of token, as graphql-js does.
constexpr core::enum_name<token_kind> token_names[] = {
    {token_kind::eof, "<EOF>"},           {token_kind::bang, "\"!\""},
    {token_kind::dollar, "\"$\""},        {token_kind::amp, "\"&\""},
    {token_kind::paren_l, "\"(\""},       {token_kind::paren_r, "\")\""},
    {token_kind::spread, "\"...\""},      {token_kind::colon, "\":\""},
    {token_kind::equals, "\"=\""},        {token_kind::at, "\"@\""},
    {token_kind::bracket_l, "\"[\""},     {token_kind::bracket_r, "\"]\""},
    {token_kind::brace_l, "\"{\""},       {token_kind::pipe, "\"|\""},
    {token_kind::brace_r, "\"}\""},       {token_kind::name, "Name"},
    {token_kind::int_value, "Int"},       {token_kind::float_value, "Float"},
    {token_kind::string_value, "String"}, {token_kind::block_string, "BlockString"},
};
// One row a kind: block_string is the last enumerator (lexer.hpp).
static_assert(std::size(token_names) == static_cast<std::size_t>(token_kind::block_string) + 1);

std::string describe(token_kind kind) {
    return std::string(core::name_of(token_names, kind, "?"));
}

std::string describe(const token& t) {
    switch (t.kind) {
        case token_kind::name:
        case token_kind::int_value:
        case token_kind::float_value:
            return describe(t.kind) + " \"" + t.value + "\"";
        case token_kind::string_value:
        case token_kind::block_string:
            return describe(t.kind);
        default:
            return describe(t.kind);
    }
}

std::vector<token> tokenize(std::string_view source, std::size_t max_tokens) {
    return scanner(source, max_tokens).run();
}

}  // namespace storefront::graphql
