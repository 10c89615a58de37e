#pragma once
// JSON of the pet store surface: decoding request bodies (JSON, or url-encoded forms where the petstore
// document lists them) into core pet types with field-naming validation, and writing Pet, Order and User.

#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include <boost/json/value.hpp>

#include "core/pet_model.hpp"
#include "core/validation.hpp"
#include "server/codec/response.hpp"

namespace storefront::server {

// A decoded body. A form becomes an object of strings: a repeated key becomes an array
// (photoUrls=a&photoUrls=b) and "a.b" a nested member (category.name=Dogs); readers then accept
// numbers and booleans written as text and a single string where an array is expected.
struct pet_document {
    boost::json::value value;
    bool from_form = false;
};

// Errors (petstore body): 415 for another media type, 400 for malformed JSON or an empty body.
// `allow_form` false accepts JSON only (POST /user/createWithList).
[[nodiscard]] or_response<pet_document> decode_pet_document(
    std::string_view content_type, std::string_view body, bool allow_form = true
);

// Pet {id, category{id,name}, name, photoUrls[], tags[{id,name}], status}: name and photoUrls required;
// id 0 or absent = assign one, unless `id_required` (PUT /pet).
[[nodiscard]] core::validated<core::pet> read_pet(const pet_document& doc, bool id_required);

// Order {id, petId, quantity, shipDate, status, complete}: petId and quantity (> 0) required; status
// defaults to placed, complete to false.
[[nodiscard]] core::validated<core::pet_order> read_order(const pet_document& doc);

// A user as written by a client: the profile and the clear password, if one was sent.
struct pet_user_input {
    core::pet_user profile;
    std::optional<std::string> password;
};

// User {id, username, firstName, lastName, email, password, phone, userStatus}: username required.
[[nodiscard]] core::validated<pet_user_input> read_user(const pet_document& doc);

// A JSON array of 1..max_users users (messages prefixed with the position, "[2].username is required").
[[nodiscard]] core::validated<std::vector<pet_user_input>> read_user_list(
    const pet_document& doc, std::size_t max_users
);

[[nodiscard]] std::string to_json(const core::pet& p);
[[nodiscard]] std::string to_json(const core::pet_order& o);
[[nodiscard]] std::string to_json(const core::pet_user& u);  // never any password material
[[nodiscard]] std::string to_json(const std::vector<core::pet>& pets);
[[nodiscard]] std::string to_json(const std::vector<core::pet_user>& users);

}  // namespace storefront::server
