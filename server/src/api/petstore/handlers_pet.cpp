// Pet handlers of /api/v3: add, update, find by status or tags, get, update with query, delete, upload
// an image and serve it back. Writes need a bearer token with write:pets; GET /pet/{petId} an api_key or
// read:pets; the finders and image downloads are public.

#include <boost/algorithm/string/case_conv.hpp>
#include <boost/algorithm/string/predicate.hpp>

#include "core/pet_rules.hpp"
#include "pet_answers.hpp"
#include "pet_params.hpp"
#include "server/api/petstore/handlers.hpp"
#include "server/api/petstore/pet_json.hpp"
#include "server/codec/request_body.hpp"
#include "server/routing/error_responses.hpp"

namespace storefront::server {

namespace {

// A finder's answer: the filter `parse` reads from the query (or 400 naming its problems), every pet `find`
// (pet store, filter) matches, and how many there are (X-Total-Count, as the /api/v1 lists).
template <class Parse, class Find>
handler_result matching_pets(const request_context& ctx, pet_services& app, Parse parse, Find find) {
    const auto filter = parse(ctx.query);
    if (!filter) {
        co_return pet_validation_failed(filter.error());
    }
    const auto pets = co_await app.storage([&] { return find(app.pets(), *filter); });
    response r = json_response(http::status::ok, to_json(pets));
    r.with_header("X-Total-Count", std::to_string(pets.size()));
    co_return r;
}

}  // namespace

// POST /pet {Pet} (bearer write:pets) : stores a new pet (id assigned when absent) and returns it
handler_result handle_post_pet(request_context& ctx, pet_services& app) {
    auto pet = pet_params::read_body(ctx, read_pet, false);
    if (!pet) {
        co_return std::move(pet).error();
    }
    const auto stored = co_await app.storage([&] { return app.pets().add(std::move(*pet)); });
    co_return json_response(http::status::ok, to_json(stored));
}

// PUT /pet {Pet with id} (bearer write:pets) : replaces an existing pet
handler_result handle_put_pet(request_context& ctx, pet_services& app) {
    auto pet = pet_params::read_body(ctx, read_pet, true);
    if (!pet) {
        co_return std::move(pet).error();
    }
    const auto stored = co_await app.storage([&] { return app.pets().replace(*pet); });
    if (!stored) {
        co_return pet_error_response(stored.error(), "Pet");
    }
    co_return json_response(http::status::ok, to_json(*stored));
}

// GET /pet/findByStatus?status=available,pending (repeatable; default available) : matching pets, id order,
// and their number (X-Total-Count)
handler_result handle_get_pet_find_by_status(request_context& ctx, pet_services& app) {
    return matching_pets(ctx, app, core::parse_status_filter, [](const auto& pets, const auto& statuses) {
        return pets.find_by_status(statuses);
    });
}

// GET /pet/findByTags?tags=tag1,tag2 (repeatable) : pets with any of the tags, id order, and their number
// (X-Total-Count)
handler_result handle_get_pet_find_by_tags(request_context& ctx, pet_services& app) {
    return matching_pets(ctx, app, core::parse_tag_filter, [](const auto& pets, const auto& tags) {
        return pets.find_by_tags(tags);
    });
}

// GET /pet/{petId} (api_key or bearer read:pets) : one pet
handler_result handle_get_pet(request_context& ctx, pet_services& app) {
    const auto find = [](pet_services& s, std::int64_t id) { return s.pets().find(id); };
    return pet_params::answer_for_key(
        pet_params::path_id(ctx, "petId"), app, "Pet", find, pet_params::json_ok
    );
}

// POST /pet/{petId}?name=&status= (bearer write:pets) : sets the name and/or status of a pet
handler_result handle_post_pet_by_id(request_context& ctx, pet_services& app) {
    auto id = pet_params::path_id(ctx, "petId");
    if (!id) {
        co_return std::move(id).error();
    }
    auto name = pet_params::single_query(ctx, "name");
    if (!name) {
        co_return std::move(name).error();
    }
    auto status_text = pet_params::single_query(ctx, "status");
    if (!status_text) {
        co_return std::move(status_text).error();
    }
    auto& new_name = (*name);
    const auto& new_status_text = (*status_text);
    core::validation_errors problems;
    if (!new_name && !new_status_text) {
        problems.messages.push_back("name or status is required");
    }
    if (new_name && new_name->empty()) {
        problems.messages.push_back("name must not be empty");
    }
    std::optional<core::pet_status> new_status;
    if (new_status_text) {
        new_status = core::parse_pet_status(*new_status_text);
        if (!new_status) {
            problems.messages.push_back("status must be one of available, pending, sold");
        }
    }
    if (!problems.messages.empty()) {
        co_return pet_validation_failed(problems);
    }
    const auto updated = co_await app.storage([&] {
        return app.pets().update_name_status(*id, std::move(new_name), new_status);
    });
    if (!updated) {
        co_return pet_error_response(updated.error(), "Pet");
    }
    co_return json_response(http::status::ok, to_json(*updated));
}

// DELETE /pet/{petId} (bearer write:pets) : removes a pet and its uploaded images
handler_result handle_delete_pet(request_context& ctx, pet_services& app) {
    auto id = pet_params::path_id(ctx, "petId");
    if (!id) {
        co_return std::move(id).error();
    }
    const std::int64_t pet_id = (*id);
    const auto removed = co_await app.storage([&] { return app.pets().remove(pet_id); });
    if (!removed) {
        co_return pet_error_response(removed.error(), "Pet");
    }
    co_await app.storage([&] { return app.pet_images().remove_for_pet(pet_id); });
    co_return pet_params::json_string_response("Pet deleted");
}

// POST /pet/{petId}/uploadImage?additionalMetadata= (bearer write:pets, octet-stream body) : stores the
// image, adds its URL to photoUrls and returns the pet
handler_result handle_post_pet_upload_image(request_context& ctx, pet_services& app) {
    auto id = pet_params::path_id(ctx, "petId");
    if (!id) {
        co_return std::move(id).error();
    }
    auto metadata = pet_params::single_query(ctx, "additionalMetadata");
    if (!metadata) {
        co_return std::move(metadata).error();
    }
    const std::string declared = media_type_of(ctx.request[http::field::content_type]);
    if (!core::pet_upload_type_allowed(declared)) {
        co_return pet_error(
            http::status::unsupported_media_type,
            "Unsupported Media Type: send the image as application/octet-stream (or image/png, image/jpeg, "
            "image/gif, image/webp)"
        );
    }
    const std::string& bytes = ctx.request.body();
    if (bytes.empty()) {
        co_return pet_error(http::status::bad_request, "No file uploaded: the request body is empty");
    }
    const std::int64_t pet_id = (*id);
    const auto pet = co_await app.storage([&] { return app.pets().find(pet_id); });
    if (!pet) {
        co_return pet_error_response(pet.error(), "Pet");
    }
    core::pet_image image;
    image.media_type = core::pet_image_media_type(declared, bytes);
    image.bytes = bytes;
    const auto image_id =
        co_await app.storage([&] { return app.pet_images().add(pet_id, std::move(image)); });
    if (!image_id) {
        co_return pet_error_response(image_id.error());
    }
    std::string url = "/api/v3/pet/" + std::to_string(pet_id) + "/images/" + std::to_string(*image_id);
    const auto updated =
        co_await app.storage([&] { return app.pets().add_photo_url(pet_id, std::move(url)); });
    if (!updated) {
        co_await app.storage([&] { return app.pet_images().remove_for_pet(pet_id); }
        );  // the pet was deleted meanwhile
        co_return pet_error_response(updated.error(), "Pet");
    }
    co_return json_response(http::status::ok, to_json(*updated));
}

// GET /pet/{petId}/images/{imageId} : an uploaded image, with its media type
handler_result handle_get_pet_image(request_context& ctx, pet_services& app) {
    auto pet_id = pet_params::path_id(ctx, "petId");
    if (!pet_id) {
        co_return std::move(pet_id).error();
    }
    auto image_id = pet_params::path_id(ctx, "imageId");
    if (!image_id) {
        co_return std::move(image_id).error();
    }
    auto image = co_await app.storage([&] { return app.pet_images().find(*pet_id, *image_id); });
    if (!image) {
        co_return pet_error_response(image.error(), "Image");
    }
    const auto& blob = *image;
    response r;
    r.content_type = blob->media_type;
    r.shared_body = std::shared_ptr<const std::string>(blob, &blob->bytes);  // shares, never copies
    r.with_header("Cache-Control", "public, max-age=86400");
    co_return r;
}

}  // namespace storefront::server
