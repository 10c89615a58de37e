// UTF-8 validation and encoding, printing of characters for syntax errors, and the specification's
// block string value algorithm (common indentation and blank edge lines removed).

#include "source_text.hpp"

#include <algorithm>
#include <vector>

namespace storefront::graphql::detail {

void append_utf8(std::string& out, std::uint32_t cp) {
    if (cp < 0x80) {
        out += static_cast<char>(cp);
    } else if (cp < 0x800) {
        out += static_cast<char>(0xC0 | (cp >> 6));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
        out += static_cast<char>(0xE0 | (cp >> 12));
        out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    } else {
        out += static_cast<char>(0xF0 | (cp >> 18));
        out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
        out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    }
}

std::size_t utf8_length(std::string_view s, std::size_t i) {
    const auto b = [&](std::size_t k) { return static_cast<unsigned char>(s[i + k]); };
    const unsigned char c = b(0);
    if (c < 0x80) {
        return 1;
    }
    std::size_t n = 0;
    std::uint32_t min = 0;
    if (c >= 0xC2 && c <= 0xDF) {
        n = 2;
        min = 0x80;
    } else if (c >= 0xE0 && c <= 0xEF) {
        n = 3;
        min = 0x800;
    } else if (c >= 0xF0 && c <= 0xF4) {
        n = 4;
        min = 0x10000;
    } else {
        return 0;
    }
    if (i + n > s.size()) {
        return 0;
    }
    std::uint32_t cp = c & (0x7F >> n);
    for (std::size_t k = 1; k < n; ++k) {
        if ((b(k) & 0xC0) != 0x80) {
            return 0;
        }
        cp = (cp << 6) | (b(k) & 0x3F);
    }
    if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) {
        return 0;
    }
    return n;
}

std::string print_char(std::string_view s, std::size_t i) {
    if (i >= s.size()) {
        return "<EOF>";
    }
    const unsigned char c = static_cast<unsigned char>(s[i]);
    if (c < 0x20 || c == 0x7F) {
        static const char* hex = "0123456789ABCDEF";
        return std::string("U+00") + hex[c >> 4] + hex[c & 15];
    }
    if (c == '"') {
        return "'\"'";
    }
    return "\"" + std::string(s.substr(i, utf8_length(s, i) == 0 ? 1 : utf8_length(s, i))) + "\"";
}

std::string block_string_value(const std::string& raw) {
    std::vector<std::string> lines;
    std::size_t start = 0;
    for (std::size_t i = 0; i <= raw.size(); ++i) {
        if (i == raw.size() || raw[i] == '\n' || raw[i] == '\r') {
            lines.push_back(raw.substr(start, i - start));
            if (i < raw.size() && raw[i] == '\r' && i + 1 < raw.size() && raw[i + 1] == '\n') {
                ++i;
            }
            start = i + 1;
        }
    }
    const auto indent_of = [](const std::string& line) {
        std::size_t n = 0;
        while (n < line.size() && (line[n] == ' ' || line[n] == '\t')) {
            ++n;
        }
        return n;
    };
    std::size_t common = std::string::npos;
    for (std::size_t i = 1; i < lines.size(); ++i) {
        const std::size_t indent = indent_of(lines[i]);
        if (indent < lines[i].size() && indent < common) {
            common = indent;
        }
    }
    if (common != std::string::npos) {
        for (std::size_t i = 1; i < lines.size(); ++i) {
            lines[i].erase(0, std::min(common, lines[i].size()));
        }
    }
    const auto blank = [&](const std::string& line) { return indent_of(line) == line.size(); };
    std::size_t first = 0;
    std::size_t last = lines.size();
    while (first < last && blank(lines[first])) {
        ++first;
    }
    while (last > first && blank(lines[last - 1])) {
        --last;
    }
    std::string out;
    for (std::size_t i = first; i < last; ++i) {
        if (i > first) {
            out += '\n';
        }
        out += lines[i];
    }
    return out;
}

}  // namespace storefront::graphql::detail
