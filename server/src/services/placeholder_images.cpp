// Placeholder PNGs with libgd (Debian libgd-dev): a coloured card with the item's name in gd's built-in
// bitmap font, drawn at half size and doubled so the text stays legible without a font file.

#include "server/services/placeholder_images.hpp"

#include <array>
#include <gd.h>
#include <gdfontg.h>
#include <gdfontmb.h>
#include <memory>
#include <stdexcept>
#include <string_view>
#include <vector>

namespace storefront::server {

namespace {

struct image_deleter {
    void operator()(gdImagePtr im) const { gdImageDestroy(im); }
};
using image_ptr = std::unique_ptr<gdImage, image_deleter>;

// UTF-8 to the font's single-byte set: Latin-1 code points as bytes, anything else '?'.
std::string to_font_bytes(std::string_view utf8) {
    std::string out;
    for (std::size_t i = 0; i < utf8.size();) {
        const auto lead = static_cast<unsigned char>(utf8[i]);
        if (lead < 0x80) {
            out += static_cast<char>(lead >= 0x20 ? lead : '?');
            ++i;
            continue;
        }
        std::size_t length = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1;
        if (length == 2 && i + 1 < utf8.size()) {
            const unsigned cp = ((lead & 0x1Fu) << 6) | (static_cast<unsigned char>(utf8[i + 1]) & 0x3Fu);
            out += cp >= 0xA0 && cp < 0x100 ? static_cast<char>(cp) : '?';
        } else {
            out += '?';
        }
        i += length;
    }
    return out;
}

// Words packed into lines of at most `width` characters (longer words are cut), at most `max_lines`.
std::vector<std::string> wrap(const std::string& text, std::size_t width, std::size_t max_lines) {
    std::vector<std::string> lines;
    std::string line;
    std::size_t start = 0;
    while (start < text.size() && lines.size() < max_lines) {
        std::size_t end = text.find(' ', start);
        std::string word = text.substr(start, end == std::string::npos ? std::string::npos : end - start);
        start = end == std::string::npos ? text.size() : end + 1;
        if (word.empty()) {
            continue;
        }
        word = word.substr(0, width);
        if (!line.empty() && line.size() + 1 + word.size() > width) {
            lines.push_back(line);
            line.clear();
        }
        line += (line.empty() ? "" : " ") + word;
    }
    if (!line.empty() && lines.size() < max_lines) {
        lines.push_back(line);
    }
    return lines;
}

int colour(gdImagePtr im, std::uint32_t rgb, double scale) {
    const auto channel = [&](int shift) {
        const double v = static_cast<double>((rgb >> shift) & 0xFF) * scale;
        return static_cast<int>(v > 255 ? 255 : v);
    };
    return gdImageColorAllocate(im, channel(16), channel(8), channel(0));
}

std::string draw_png(const placeholder_spec& spec) {
    const int w = spec.width / 2;
    const int h = spec.height / 2;
    image_ptr small(gdImageCreate(w, h));
    if (!small) {
        throw std::runtime_error("gdImageCreate failed");
    }
    const int background = colour(small.get(), spec.rgb, 1.0);
    const int band = colour(small.get(), spec.rgb, 0.7);
    const int white = gdImageColorAllocate(small.get(), 255, 255, 255);
    gdImageFilledRectangle(small.get(), 0, 0, w - 1, h - 1, background);
    gdImageFilledRectangle(small.get(), 0, h - h / 5, w - 1, h - 1, band);

    gdFontPtr title_font = gdFontGetGiant();
    const auto chars_per_line = static_cast<std::size_t>((w - 16) / title_font->w);
    const auto lines = wrap(to_font_bytes(spec.title), chars_per_line, 4);
    const int block = static_cast<int>(lines.size()) * (title_font->h + 2);
    int y = (h - h / 5 - block) / 2;
    for (const auto& line : lines) {
        const int x = (w - static_cast<int>(line.size()) * title_font->w) / 2;
        std::vector<unsigned char> text(line.begin(), line.end());
        text.push_back(0);
        gdImageString(small.get(), title_font, x, y, text.data(), white);
        y += title_font->h + 2;
    }
    if (!spec.subtitle.empty()) {
        gdFontPtr small_font = gdFontGetMediumBold();
        const auto sub =
            wrap(to_font_bytes(spec.subtitle), static_cast<std::size_t>((w - 8) / small_font->w), 1);
        if (!sub.empty()) {
            std::vector<unsigned char> text(sub.front().begin(), sub.front().end());
            text.push_back(0);
            const int x = (w - static_cast<int>(sub.front().size()) * small_font->w) / 2;
            gdImageString(small.get(), small_font, x, h - h / 10 - small_font->h / 2, text.data(), white);
        }
    }
    image_ptr full(gdImageCreate(spec.width, spec.height));
    if (!full) {
        throw std::runtime_error("gdImageCreate failed");
    }
    gdImagePaletteCopy(full.get(), small.get());
    gdImageCopyResized(full.get(), small.get(), 0, 0, 0, 0, spec.width, spec.height, w, h);
    int size = 0;
    void* data = gdImagePngPtrEx(full.get(), &size, 9);
    if (data == nullptr) {
        throw std::runtime_error("gdImagePngPtrEx failed");
    }
    std::string png(static_cast<const char*>(data), static_cast<std::size_t>(size));
    gdFree(data);
    return png;
}

}  // namespace

placeholder_images::placeholder_images(std::size_t max_cached) : max_cached_(max_cached) {}

rendered_image placeholder_images::render(const placeholder_spec& spec) {
    std::string key = spec.title;
    key.append("\n").append(spec.subtitle).append("\n").append(std::to_string(spec.rgb));
    key.append("\n").append(std::to_string(spec.width)).append("x").append(std::to_string(spec.height));
    {
        std::lock_guard lock(mutex_);
        if (const auto it = cache_.find(key); it != cache_.end()) {
            return it->second;
        }
    }
    // Drawn outside the lock: two threads may draw the same picture once each, which is harmless.
    rendered_image image{std::make_shared<const prepared_body>(draw_png(spec))};
    std::lock_guard lock(mutex_);
    if (cache_.size() >= max_cached_) {
        cache_.clear();  // bounded: start over rather than track recency for a cache this cheap to refill
    }
    cache_.emplace(std::move(key), image);
    return image;
}

std::uint32_t placeholder_images::category_colour(std::int64_t id) noexcept {
    constexpr std::array<std::uint32_t, 8> palette{
        0x2563EB, 0xDB2777, 0x059669, 0xD97706, 0x7C3AED, 0x0891B2, 0xDC2626, 0x4B5563};
    const auto index = static_cast<std::size_t>((id % 8 + 8) % 8);
    return palette[index];
}

}  // namespace storefront::server
