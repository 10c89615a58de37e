// Slug generation: a small strict UTF-8 decoder plus an ASCII folding table for Latin-1 Supplement
// and Latin Extended-A letters; everything else (including invalid UTF-8) separates words.

#include "core/slug.hpp"

#include <cstddef>
#include <optional>
#include <string_view>

namespace storefront::core {

namespace {

// Letters in [first, last] fold to `ascii` (already lower-case).
struct fold_range {
    char32_t first;
    char32_t last;
    std::string_view ascii;
};

// Sorted, non-overlapping. U+00D7 (multiplication) and U+00F7 (division) are absent on purpose.
constexpr fold_range folds[] = {
    {0x00C0, 0x00C5, "a"},  {0x00C6, 0x00C6, "ae"}, {0x00C7, 0x00C7, "c"},  {0x00C8, 0x00CB, "e"},
    {0x00CC, 0x00CF, "i"},  {0x00D0, 0x00D0, "d"},  {0x00D1, 0x00D1, "n"},  {0x00D2, 0x00D6, "o"},
    {0x00D8, 0x00D8, "o"},  {0x00D9, 0x00DC, "u"},  {0x00DD, 0x00DD, "y"},  {0x00DE, 0x00DE, "th"},
    {0x00DF, 0x00DF, "ss"}, {0x00E0, 0x00E5, "a"},  {0x00E6, 0x00E6, "ae"}, {0x00E7, 0x00E7, "c"},
    {0x00E8, 0x00EB, "e"},  {0x00EC, 0x00EF, "i"},  {0x00F0, 0x00F0, "d"},  {0x00F1, 0x00F1, "n"},
    {0x00F2, 0x00F6, "o"},  {0x00F8, 0x00F8, "o"},  {0x00F9, 0x00FC, "u"},  {0x00FD, 0x00FD, "y"},
    {0x00FE, 0x00FE, "th"}, {0x00FF, 0x00FF, "y"},  {0x0100, 0x0105, "a"},  {0x0106, 0x010D, "c"},
    {0x010E, 0x0111, "d"},  {0x0112, 0x011B, "e"},  {0x011C, 0x0123, "g"},  {0x0124, 0x0127, "h"},
    {0x0128, 0x0131, "i"},  {0x0132, 0x0133, "ij"}, {0x0134, 0x0135, "j"},  {0x0136, 0x0138, "k"},
    {0x0139, 0x0142, "l"},  {0x0143, 0x014B, "n"},  {0x014C, 0x0151, "o"},  {0x0152, 0x0153, "oe"},
    {0x0154, 0x0159, "r"},  {0x015A, 0x0161, "s"},  {0x0162, 0x0167, "t"},  {0x0168, 0x0173, "u"},
    {0x0174, 0x0175, "w"},  {0x0176, 0x0178, "y"},  {0x0179, 0x017E, "z"},  {0x017F, 0x017F, "s"},
};

std::string_view fold(char32_t cp) noexcept {
    for (const auto& range : folds) {
        if (cp < range.first) {
            break;
        }
        if (cp <= range.last) {
            return range.ascii;
        }
    }
    return {};
}

struct decoded {
    char32_t code_point;
    std::size_t length;
};

// Decodes one code point at the start of `text`, or nullopt for a malformed, overlong or surrogate sequence.
std::optional<decoded> decode_utf8(std::string_view text) noexcept {
    const auto lead = static_cast<unsigned char>(text.front());
    std::size_t length = 0;
    char32_t cp = 0;
    char32_t min = 0;
    if (lead < 0x80) {
        return decoded{lead, 1};
    } else if ((lead & 0xE0) == 0xC0) {
        length = 2;
        cp = lead & 0x1F;
        min = 0x80;
    } else if ((lead & 0xF0) == 0xE0) {
        length = 3;
        cp = lead & 0x0F;
        min = 0x800;
    } else if ((lead & 0xF8) == 0xF0) {
        length = 4;
        cp = lead & 0x07;
        min = 0x10000;
    } else {
        return std::nullopt;
    }
    if (text.size() < length) {
        return std::nullopt;
    }
    for (std::size_t i = 1; i < length; ++i) {
        const auto byte = static_cast<unsigned char>(text[i]);
        if ((byte & 0xC0) != 0x80) {
            return std::nullopt;
        }
        cp = (cp << 6) | (byte & 0x3F);
    }
    if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) {
        return std::nullopt;
    }
    return decoded{cp, length};
}

}  // namespace

std::string make_slug(std::string_view title) {
    std::string slug;
    slug.reserve(title.size());
    bool pending_dash = false;  // a separator run seen since the last letter or digit
    const auto append = [&](std::string_view ascii) {
        if (pending_dash && !slug.empty()) {
            slug.push_back('-');
        }
        pending_dash = false;
        slug.append(ascii);
    };
    while (!title.empty()) {
        const std::optional<decoded> d = decode_utf8(title);
        if (!d) {
            pending_dash = true;  // skip one byte; any stray continuation bytes are skipped the same way
            title.remove_prefix(1);
            continue;
        }
        title.remove_prefix(d->length);
        const char32_t cp = d->code_point;
        if ((cp >= 'a' && cp <= 'z') || (cp >= '0' && cp <= '9')) {
            const char c = static_cast<char>(cp);
            append({&c, 1});
        } else if (cp >= 'A' && cp <= 'Z') {
            const char c = static_cast<char>(cp - 'A' + 'a');
            append({&c, 1});
        } else if (const std::string_view ascii = fold(cp); !ascii.empty()) {
            append(ascii);
        } else {
            pending_dash = true;
        }
    }
    return slug;
}

}  // namespace storefront::core
