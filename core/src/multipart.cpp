// A strict multipart/form-data reader: delimiters exactly as RFC 2046 spells them, part headers bounded,
// Content-Disposition parameters with quoted strings; everything else is refused rather than guessed.

#include "core/multipart.hpp"

#include <algorithm>
#include <cctype>

#include "core/text.hpp"

namespace storefront::core {

namespace {

constexpr std::size_t max_part_header_bytes = 8 * 1024;

using core::trim_spaces;

std::string lower(std::string_view text) {
    return ascii_lower(text);
}

// Reads `name=value` parameters after the first ';' of a header value; quoted values may escape with '\'.
// Returns false on a malformed parameter list.
template <class OnParam>
bool read_parameters(std::string_view value, OnParam on_param) {
    std::size_t i = value.find(';');
    while (i != std::string_view::npos && i < value.size()) {
        ++i;  // past ';'
        while (i < value.size() && (value[i] == ' ' || value[i] == '\t')) {
            ++i;
        }
        if (i >= value.size()) {
            return true;
        }
        const std::size_t eq = value.find('=', i);
        if (eq == std::string_view::npos) {
            return false;
        }
        const std::string key = lower(trim_spaces(value.substr(i, eq - i)));
        std::size_t j = eq + 1;
        std::string param;
        if (j < value.size() && value[j] == '"') {
            ++j;
            bool closed = false;
            while (j < value.size()) {
                const char c = value[j++];
                if (c == '\\' && j < value.size()) {
                    param += value[j++];
                } else if (c == '"') {
                    closed = true;
                    break;
                } else {
                    param += c;
                }
            }
            if (!closed) {
                return false;
            }
            while (j < value.size() && value[j] != ';') {
                if (value[j] != ' ' && value[j] != '\t') {
                    return false;
                }
                ++j;
            }
        } else {
            const std::size_t end = std::min(value.find(';', j), value.size());
            param = std::string(trim_spaces(value.substr(j, end - j)));
            j = end;
        }
        on_param(key, std::move(param));
        i = j < value.size() ? j : std::string_view::npos;
    }
    return true;
}

bool valid_boundary(std::string_view b) {
    // RFC 2046 bchars; a trailing space is not allowed.
    constexpr std::string_view specials = "'()+_,-./:=? ";
    return !b.empty() && b.size() <= 70 && b.back() != ' ' && std::all_of(b.begin(), b.end(), [&](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || specials.find(c) != std::string_view::npos;
    });
}

// The headers of one part (text before the blank line) into `part`; false when malformed.
bool read_part_headers(std::string_view headers, multipart_part& part) {
    bool has_disposition = false;
    while (!headers.empty()) {
        const std::size_t eol = headers.find("\r\n");
        const std::string_view line = headers.substr(0, eol);
        headers = eol == std::string_view::npos ? std::string_view() : headers.substr(eol + 2);
        const std::size_t colon = line.find(':');
        if (colon == std::string_view::npos || colon == 0) {
            return false;
        }
        const std::string name = lower(line.substr(0, colon));
        const std::string_view value = trim_spaces(line.substr(colon + 1));
        if (name == "content-disposition") {
            if (lower(trim_spaces(value.substr(0, value.find(';')))) != "form-data") {
                return false;
            }
            const bool ok = read_parameters(value, [&](const std::string& key, std::string v) {
                if (key == "name") {
                    part.name = std::move(v);
                } else if (key == "filename") {
                    part.filename = std::move(v);
                }
            });
            if (!ok) {
                return false;
            }
            has_disposition = true;
        } else if (name == "content-type") {
            part.content_type = std::string(value);
        }
    }
    return has_disposition && !part.name.empty();
}

}  // namespace

std::optional<std::string> multipart_boundary(std::string_view content_type) {
    if (lower(trim_spaces(content_type.substr(0, content_type.find(';')))) != "multipart/form-data") {
        return std::nullopt;
    }
    std::optional<std::string> boundary;
    const bool ok = read_parameters(content_type, [&](const std::string& key, std::string value) {
        if (key == "boundary") {
            boundary = std::move(value);
        }
    });
    if (!ok || !boundary || !valid_boundary(*boundary)) {
        return std::nullopt;
    }
    return boundary;
}

std::optional<std::vector<multipart_part>> parse_multipart(std::string_view body, std::string_view boundary) {
    const std::string dash_boundary = "--" + std::string(boundary);
    const std::string delimiter = "\r\n" + dash_boundary;
    // The first boundary may open the body or follow a preamble.
    std::size_t pos = 0;
    if (body.substr(0, dash_boundary.size()) == dash_boundary) {
        pos = dash_boundary.size();
    } else {
        const std::size_t first = body.find(delimiter);
        if (first == std::string_view::npos) {
            return std::nullopt;
        }
        pos = first + delimiter.size();
    }
    std::vector<multipart_part> parts;
    while (true) {
        if (body.substr(pos, 2) == "--") {
            return parts;  // close delimiter; an epilogue after it is ignored
        }
        // Transport padding (spaces and tabs) may follow a delimiter before its CRLF.
        while (pos < body.size() && (body[pos] == ' ' || body[pos] == '\t')) {
            ++pos;
        }
        if (body.substr(pos, 2) != "\r\n" || parts.size() >= max_multipart_parts) {
            return std::nullopt;
        }
        pos += 2;
        const std::size_t headers_end = body.find("\r\n\r\n", pos);
        if (headers_end == std::string_view::npos || headers_end - pos > max_part_header_bytes) {
            return std::nullopt;
        }
        multipart_part part;
        if (!read_part_headers(body.substr(pos, headers_end - pos), part)) {
            return std::nullopt;
        }
        const std::size_t content_start = headers_end + 4;
        const std::size_t next = body.find(delimiter, content_start);
        if (next == std::string_view::npos) {
            return std::nullopt;
        }
        part.body = body.substr(content_start, next - content_start);
        parts.push_back(std::move(part));
        pos = next + delimiter.size();
    }
}

}  // namespace storefront::core
