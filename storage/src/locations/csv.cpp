// The location CSV reader: a small RFC 4180 record splitter (quoted fields, "" escapes, CRLF or LF,
// line breaks inside quotes) and per-record validation with file:line error messages.

#include "locations/csv.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <fstream>
#include <iterator>
#include <optional>
#include <stdexcept>
#include <unordered_set>

#include <system_error>

namespace storefront::storage::detail {
namespace {

constexpr std::array<std::string_view, 5> expected_header{
    "id", "name", "description", "latitude", "longitude"};

class csv_error : public std::runtime_error {
  public:
    csv_error(const std::string& source, std::size_t line, const std::string& problem)
        : std::runtime_error(source + ":" + std::to_string(line) + ": " + problem) {}
};

// Splits text into records. Empty lines between records are skipped.
class csv_reader {
  public:
    csv_reader(std::string_view text, const std::string& source) : text_(text), source_(source) {
        constexpr std::string_view bom = "\xEF\xBB\xBF";
        if (text_.substr(0, bom.size()) == bom) {
            pos_ = bom.size();
        }
    }

    // The next record's fields, and the line it starts on; false at the end of the text.
    bool next(std::vector<std::string>& fields, std::size_t& record_line) {
        skip_empty_lines();
        if (pos_ == text_.size()) {
            return false;
        }
        record_line = line_;
        fields.clear();
        for (;;) {
            fields.push_back(read_field());
            if (pos_ == text_.size()) {
                return true;
            }
            const char c = text_[pos_];
            if (c == ',') {
                ++pos_;
            } else if (c == '\n') {
                ++pos_;
                ++line_;
                return true;
            } else if (c == '\r' && pos_ + 1 < text_.size() && text_[pos_ + 1] == '\n') {
                pos_ += 2;
                ++line_;
                return true;
            } else if (c == '\r') {
                throw csv_error(source_, line_, "carriage return without line feed");
            } else {
                throw csv_error(source_, line_, "unexpected character after closing quote");
            }
        }
    }

  private:
    void skip_empty_lines() {
        for (;;) {
            if (pos_ < text_.size() && text_[pos_] == '\n') {
                ++pos_;
            } else if (pos_ + 1 < text_.size() && text_[pos_] == '\r' && text_[pos_ + 1] == '\n') {
                pos_ += 2;
            } else {
                return;
            }
            ++line_;
        }
    }

    // Stops at the delimiter (',', line break or end) without consuming it.
    std::string read_field() {
        std::string field;
        if (pos_ < text_.size() && text_[pos_] == '"') {
            const std::size_t quote_line = line_;
            ++pos_;
            for (;;) {
                if (pos_ == text_.size()) {
                    throw csv_error(source_, quote_line, "unterminated quoted field");
                }
                const char c = text_[pos_];
                if (c == '"') {
                    if (pos_ + 1 < text_.size() && text_[pos_ + 1] == '"') {
                        field += '"';
                        pos_ += 2;
                        continue;
                    }
                    ++pos_;
                    return field;
                }
                if (c == '\n') {
                    ++line_;
                }
                field += c;
                ++pos_;
            }
        }
        while (pos_ < text_.size()) {
            const char c = text_[pos_];
            if (c == ',' || c == '\n' || c == '\r') {
                break;
            }
            if (c == '"') {
                throw csv_error(source_, line_, "quote inside an unquoted field");
            }
            field += c;
            ++pos_;
        }
        return field;
    }

    std::string_view text_;
    const std::string& source_;
    std::size_t pos_ = 0;
    std::size_t line_ = 1;
};

std::optional<std::int64_t> parse_id(std::string_view text) {
    std::int64_t value = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc{} || end != text.data() + text.size() || text.empty()) {
        return std::nullopt;
    }
    return value;
}

std::optional<double> parse_degrees(std::string_view text) {
    double value = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc{} || end != text.data() + text.size() || text.empty() || !std::isfinite(value)) {
        return std::nullopt;
    }
    return value;
}

}  // namespace

std::vector<core::location> parse_location_csv(std::string_view text, const std::string& source) {
    csv_reader reader(text, source);
    std::vector<std::string> fields;
    std::size_t line = 1;
    if (!reader.next(fields, line)) {
        throw csv_error(source, line, "empty file: expected header id,name,description,latitude,longitude");
    }
    if (!std::equal(fields.begin(), fields.end(), expected_header.begin(), expected_header.end())) {
        throw csv_error(source, line, "expected header id,name,description,latitude,longitude");
    }

    std::vector<core::location> out;
    std::unordered_set<std::int64_t> seen;
    while (reader.next(fields, line)) {
        if (out.size() == max_csv_locations) {
            throw csv_error(source, line, "more than " + std::to_string(max_csv_locations) + " locations");
        }
        if (fields.size() != expected_header.size()) {
            throw csv_error(source, line, "expected 5 fields, found " + std::to_string(fields.size()));
        }
        const auto id = parse_id(fields[0]);
        if (!id) {
            throw csv_error(source, line, "id is not an integer: '" + fields[0] + "'");
        }
        if (!seen.insert(*id).second) {
            throw csv_error(source, line, "duplicate id " + fields[0]);
        }
        if (fields[1].empty()) {
            throw csv_error(source, line, "name is empty");
        }
        const auto latitude = parse_degrees(fields[3]);
        if (!latitude || *latitude < -90.0 || *latitude > 90.0) {
            throw csv_error(source, line, "latitude must be a number in [-90, 90]: '" + fields[3] + "'");
        }
        const auto longitude = parse_degrees(fields[4]);
        if (!longitude || *longitude < -180.0 || *longitude > 180.0) {
            throw csv_error(source, line, "longitude must be a number in [-180, 180]: '" + fields[4] + "'");
        }
        out.push_back({*id, std::move(fields[1]), std::move(fields[2]), *latitude, *longitude});
    }
    if (out.empty()) {
        throw csv_error(source, line + 1, "no locations after the header");
    }
    return out;
}

std::vector<core::location> load_location_csv(const std::filesystem::path& file) {
    const std::string source = file.string();
    std::ifstream in(file, std::ios::binary);
    if (!in) {
        throw std::runtime_error(source + ":0: cannot open file");
    }
    const std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    if (in.bad()) {
        throw std::runtime_error(source + ":0: read error");
    }
    return parse_location_csv(text, source);
}

}  // namespace storefront::storage::detail
