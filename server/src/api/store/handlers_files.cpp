// Byte handlers: uploads (multipart/form-data, images only, sniffed, through the file store), uploaded
// files, and the pictures storefront draws for its own data. All get ETag and 304 from routing.

#include <charconv>
#include <string>

#include "core/multipart.hpp"
#include "core/pet_rules.hpp"
#include "server/api/store/handlers.hpp"
#include "server/api/store/store_params.hpp"
#include "server/codec/http_caching.hpp"
#include "server/codec/json_writer.hpp"
#include "server/routing/error_responses.hpp"

namespace storefront::server {

namespace {

using namespace store_params;

constexpr std::string_view uploaded_cache_control =
    "public, max-age=31536000, immutable";  // names never reused
constexpr std::string_view drawn_cache_control =
    "public, max-age=3600";  // names can change; ETag revalidates

std::string_view extension_of(std::string_view media_type) {
    if (media_type == "image/png") {
        return ".png";
    }
    if (media_type == "image/jpeg") {
        return ".jpg";
    }
    if (media_type == "image/gif") {
        return ".gif";
    }
    return ".webp";
}

// "12" or "12-3" before ".png": the item id and the picture number (1 when absent).
struct image_name {
    std::int64_t id = 0;
    int number = 1;
};

std::optional<image_name> parse_image_name(std::string_view file) {
    constexpr std::string_view suffix = ".png";
    if (file.size() <= suffix.size() || file.substr(file.size() - suffix.size()) != suffix) {
        return std::nullopt;
    }
    file.remove_suffix(suffix.size());
    image_name name;
    const char* const end = file.data() + file.size();
    auto [ptr, ec] = std::from_chars(file.data(), end, name.id);
    if (ec != std::errc{} || name.id <= 0) {
        return std::nullopt;
    }
    if (ptr != end) {
        if (*ptr != '-') {
            return std::nullopt;
        }
        auto [ptr2, ec2] = std::from_chars(ptr + 1, end, name.number);
        if (ec2 != std::errc{} || ptr2 != end || name.number < 1 || name.number > 10) {
            return std::nullopt;
        }
    }
    return name;
}

// A lighter or darker shade per picture number, so a product's pictures differ.
std::uint32_t shade(std::uint32_t rgb, int number) {
    const double scale = 1.0 - 0.12 * (number - 1);
    const auto channel = [&](int shift) {
        return static_cast<std::uint32_t>(static_cast<double>((rgb >> shift) & 0xFF) * scale) << shift;
    };
    return channel(16) | channel(8) | channel(0);
}

response image_not_found() {
    return error_response(core::errc::not_found, "Image not found");
}

}  // namespace

// POST /files/upload (multipart/form-data, field "file") : 201 {originalname, filename, location}
handler_result handle_post_file_upload(request_context& ctx, store_services& app) {
    const auto boundary = core::multipart_boundary(ctx.request[http::field::content_type]);
    if (!boundary) {
        co_return http_error(
            http::status::unsupported_media_type,
            "Unsupported Media Type: send multipart/form-data with the image in the field \"file\""
        );
    }
    const auto parts = core::parse_multipart(ctx.request.body(), *boundary);
    if (!parts) {
        co_return http_error(http::status::bad_request, "Malformed multipart/form-data body");
    }
    const core::multipart_part* file = nullptr;
    for (const auto& part : *parts) {
        if (part.name == "file" && part.filename) {
            file = &part;
            break;
        }
    }
    if (file == nullptr || file->body.empty()) {
        co_return validation_failed({{"file should not be empty"}});
    }
    if (file->body.size() > app.upload_limit()) {
        co_return http_error(
            http::status::payload_too_large,
            "File too large: at most " + std::to_string(app.upload_limit()) + " bytes"
        );
    }
    // The bytes decide, never the declared type or the name: SVG and HTML are refused, as anything else.
    const std::string_view media_type = core::sniff_image_type(file->body);
    if (media_type == "application/octet-stream") {
        co_return http_error(
            http::status::unsupported_media_type, "Only PNG, JPEG, GIF and WebP images can be uploaded"
        );
    }
    auto stored = co_await app.storage([&] {
        return app.files().add(
            std::string(extension_of(media_type)),
            *file->filename,
            std::string(media_type),
            std::string(file->body)
        );
    });
    if (!stored) {
        co_return error_response(stored.error(), "Upload storage is full");
    }
    const auto& f = **stored;
    std::string out;
    json_writer w(out);
    w.begin_object()
        .key("originalname")
        .value(f.original_name)
        .key("filename")
        .value(f.name)
        .key("location")
        .value(std::string(app.public_url()) + std::string(app.files_path()) + "/api/v1/files/" + f.name)
        .end_object();
    co_return json_response(http::status::created, std::move(out));
}

// GET /files/{filename} : an uploaded file with its sniffed media type
handler_result handle_get_file(request_context& ctx, store_services& app) {
    const auto found = co_await app.storage([&] { return app.files().find(decoded_param(ctx, "filename")); });
    if (!found) {
        co_return error_response(core::errc::not_found, "File not found");
    }
    const auto& file = *found;
    co_return cacheable_bytes(
        std::shared_ptr<const std::string>(file, &file->bytes), file->media_type, uploaded_cache_control
    );
}

// GET /images/{kind}/{file} : the picture of a product ("12-1.png"), category ("3.png") or user avatar
handler_result handle_get_image(request_context& ctx, store_services& app) {
    const std::string kind = decoded_param(ctx, "kind");
    const auto name = parse_image_name(decoded_param(ctx, "file"));
    if (!name) {
        co_return image_not_found();
    }
    placeholder_spec spec;
    if (kind == "products") {
        const auto product = co_await app.storage([&] { return app.catalogue().find_product(name->id); });
        if (!product) {
            co_return image_not_found();
        }
        spec.title = product->title;
        spec.subtitle = product->product_category.name;
        spec.rgb = shade(placeholder_images::category_colour(product->product_category.id), name->number);
    } else if (kind == "categories" && name->number == 1) {
        const auto category = co_await app.storage([&] { return app.catalogue().find_category(name->id); });
        if (!category) {
            co_return image_not_found();
        }
        spec.title = category->name;
        spec.rgb = placeholder_images::category_colour(category->id);
    } else if (kind == "avatars" && name->number == 1) {
        const auto user = co_await app.storage([&] { return app.users().find_user(name->id); });
        if (!user) {
            co_return image_not_found();
        }
        spec.title = user->name;
        spec.rgb = placeholder_images::category_colour(user->id + 3);
        spec.width = 256;
        spec.height = 256;
    } else {
        co_return image_not_found();
    }
    const auto image = app.images().render(spec);
    co_return cacheable_bytes(image.png, "image/png", drawn_cache_control);
}

}  // namespace storefront::server
