// End to end over HTTP on /api/v3: every pet store operation's success path on the seed data, and the
// bad-input table of each (status and petstore body shape). Writes use ids and usernames of their own and
// clean up, so the seed data other tests read stays as it was.

#include <algorithm>
#include <string>
#include <vector>

#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>

#include "pet_test_helpers.hpp"

namespace json = boost::json;
using namespace storefront::test;
using namespace storefront::test::pet;

namespace {

using ids = std::vector<std::int64_t>;

ids find_ids(const std::string& target) {
    const auto reply = get(shared_server().port(), target);
    BOOST_TEST_REQUIRE(reply.status == 200u, target << ": " << reply.body);
    return ids_up_to(reply.json(), 10);  // other tests may add pets above the seed ids
}

constexpr const char* pet_1_json =
    R"({"id":1,"category":{"id":2,"name":"Cats"},"name":"Cat 1","photoUrls":["url1","url2"],)"
    R"("tags":[{"id":1,"name":"tag1"},{"id":2,"name":"tag2"}],"status":"available"})";

struct bad_input {
    std::string body;
    unsigned status;
    std::string message;  // expected to be contained in the message
};

void check_table(const std::string& method, const std::string& target, const std::vector<bad_input>& table) {
    const std::string write = token();
    for (const auto& row : table) {
        BOOST_TEST_CONTEXT(method << " " << target << " " << row.body) {
            const auto reply =
                call(method, target, write, "", row.body, row.body.empty() ? "" : "application/json");
            const std::string message = error_message(reply, row.status);
            BOOST_TEST(message.find(row.message) != std::string::npos, message);
        }
    }
}

}  // namespace

BOOST_AUTO_TEST_SUITE(pet_operations)

BOOST_AUTO_TEST_CASE(find_by_status_single_comma_repeated_missing_invalid) {
    BOOST_TEST(find_ids("/api/v3/pet/findByStatus?status=available") == (ids{1, 2, 4, 7, 8, 9, 10}));
    BOOST_TEST(find_ids("/api/v3/pet/findByStatus?status=pending") == (ids{3, 6}));
    BOOST_TEST(find_ids("/api/v3/pet/findByStatus?status=sold") == (ids{5}));
    BOOST_TEST(find_ids("/api/v3/pet/findByStatus?status=pending,sold") == (ids{3, 5, 6}));
    BOOST_TEST(find_ids("/api/v3/pet/findByStatus?status=pending&status=sold") == (ids{3, 5, 6}));
    BOOST_TEST(find_ids("/api/v3/pet/findByStatus") == (ids{1, 2, 4, 7, 8, 9, 10}));
    BOOST_TEST(find_ids("/api/v3/pet/findByStatus/") == (ids{1, 2, 4, 7, 8, 9, 10}));

    const auto invalid = get(shared_server().port(), "/api/v3/pet/findByStatus?status=x");
    BOOST_TEST(invalid.status == 400u);
    BOOST_TEST(
        invalid.body ==
        R"({"code":400,"message":"Input error: query parameter `status` value `x` is not in the allowable values `[available, pending, sold]`"})"
    );
    for (const std::string query :
         {"status=available,bogus", "status=Available", "status=", "status=sold&status=x"}) {
        BOOST_TEST_CONTEXT(query) {
            const auto reply = get(shared_server().port(), "/api/v3/pet/findByStatus?" + query);
            BOOST_TEST(error_message(reply, 400).find("is not in the allowable values") != std::string::npos);
        }
    }
    // The full pet as served, field order included.
    const auto all = get(shared_server().port(), "/api/v3/pet/findByStatus?status=available");
    BOOST_TEST(all.body.rfind(std::string("[") + pet_1_json + ",", 0) == 0u, all.body);
    BOOST_TEST(all.header("content-type") == "application/json; charset=utf-8");
}

BOOST_AUTO_TEST_CASE(find_by_tags) {
    BOOST_TEST(find_ids("/api/v3/pet/findByTags?tags=tag1") == (ids{1, 4, 7}));
    BOOST_TEST(find_ids("/api/v3/pet/findByTags?tags=tag4") == (ids{3, 6, 9, 10}));
    BOOST_TEST(find_ids("/api/v3/pet/findByTags?tags=tag1,tag4") == (ids{1, 3, 4, 6, 7, 9, 10}));
    BOOST_TEST(find_ids("/api/v3/pet/findByTags?tags=tag1&tags=tag4") == (ids{1, 3, 4, 6, 7, 9, 10}));
    BOOST_TEST(find_ids("/api/v3/pet/findByTags?tags=nothing").empty());
    for (const std::string target :
         {"/api/v3/pet/findByTags", "/api/v3/pet/findByTags?tags=", "/api/v3/pet/findByTags?tags=,"}) {
        BOOST_TEST_CONTEXT(target) {
            BOOST_TEST(error_message(get(shared_server().port(), target), 400) == "tags is required");
        }
    }
}

BOOST_AUTO_TEST_CASE(finders_count_their_pets_in_x_total_count) {
    for (const std::string target :
         {"/api/v3/pet/findByStatus?status=available",
          "/api/v3/pet/findByStatus?status=pending,sold",
          "/api/v3/pet/findByTags?tags=tag4",
          "/api/v3/pet/findByTags?tags=nothing"}) {
        BOOST_TEST_CONTEXT(target) {
            const auto reply = get(shared_server().port(), target);
            BOOST_TEST_REQUIRE(reply.status == 200u);
            BOOST_TEST(reply.header("x-total-count") == std::to_string(reply.json().as_array().size()));
        }
    }
    BOOST_TEST(
        get(shared_server().port(), "/api/v3/pet/findByTags?tags=tag4").header("x-total-count") == "4"
    );
    BOOST_TEST(
        get(shared_server().port(), "/api/v3/pet/findByTags?tags=nothing").header("x-total-count") == "0"
    );
}

BOOST_AUTO_TEST_CASE(get_pet_by_id) {
    const auto reply = call("GET", "/api/v3/pet/1", "", "special-key");
    BOOST_TEST(reply.status == 200u);
    BOOST_TEST(reply.body == pet_1_json);
    BOOST_TEST(error_message(call("GET", "/api/v3/pet/999999", "", "special-key"), 404) == "Pet not found");
    BOOST_TEST(error_message(call("GET", "/api/v3/pet/-3", "", "special-key"), 404) == "Pet not found");
    for (const std::string id : {"abc", "1.5", "1e3", "%31x", "99999999999999999999"}) {
        BOOST_TEST_CONTEXT(id) {
            const auto bad = call("GET", "/api/v3/pet/" + id, "", "special-key");
            BOOST_TEST(error_message(bad, 400) == "Invalid ID supplied: petId must be an integer");
        }
    }
}

BOOST_AUTO_TEST_CASE(pet_lifecycle_add_update_form_upload_delete) {
    const std::string write = token();
    const std::string created_body =
        R"({"id":5001,"category":{"id":1,"name":"Dogs"},"name":"doggie","photoUrls":["https://x/1.png"],)"
        R"("tags":[{"id":7,"name":"e2e"}],"status":"available"})";
    const auto created = call_json("POST", "/api/v3/pet", created_body, write);
    BOOST_TEST(created.status == 200u, created.body);
    BOOST_TEST(created.body == created_body);
    BOOST_TEST(call("GET", "/api/v3/pet/5001", "", "special-key").body == created_body);

    // PUT replaces the whole pet.
    const std::string replaced_body =
        R"({"id":5001,"name":"doggie 2","photoUrls":[],"tags":[],"status":"pending"})";
    const auto replaced = call_json("PUT", "/api/v3/pet", replaced_body, write);
    BOOST_TEST(replaced.status == 200u, replaced.body);
    BOOST_TEST(replaced.body == replaced_body);

    // POST /pet/{petId} with query parameters.
    const auto renamed = call("POST", "/api/v3/pet/5001?name=Rex%20the%20dog&status=sold", write);
    BOOST_TEST(renamed.status == 200u, renamed.body);
    BOOST_TEST(renamed.json().at("name").as_string() == "Rex the dog");
    BOOST_TEST(renamed.json().at("status").as_string() == "sold");
    const auto status_only = call("POST", "/api/v3/pet/5001?status=available", write);
    BOOST_TEST(status_only.json().at("name").as_string() == "Rex the dog");
    BOOST_TEST(status_only.json().at("status").as_string() == "available");

    // Upload an image; its URL joins photoUrls and serves the bytes back with their type.
    const std::string png = std::string("\x89PNG\r\n\x1a\n", 8) + std::string(100, '\x07');
    const auto uploaded = call(
        "POST",
        "/api/v3/pet/5001/uploadImage?additionalMetadata=front",
        write,
        "",
        png,
        "application/octet-stream"
    );
    BOOST_TEST_REQUIRE(uploaded.status == 200u, uploaded.body);
    const auto urls = uploaded.json().at("photoUrls").as_array();
    BOOST_TEST_REQUIRE(urls.size() == 1u);
    const std::string url(urls.at(0).as_string());
    BOOST_TEST(url.rfind("/api/v3/pet/5001/images/", 0) == 0u, url);
    const auto image = get(shared_server().port(), url);
    BOOST_TEST(image.status == 200u);
    BOOST_TEST(image.body == png);
    BOOST_TEST(image.header("content-type") == "image/png");
    BOOST_TEST(image.header("x-content-type-options") == "nosniff");
    BOOST_TEST(image.header("access-control-allow-origin") == "*");
    const auto head = send_request(shared_server().port(), {.method = "HEAD", .target = url});
    BOOST_TEST(head.status == 200u);
    BOOST_TEST(head.header("content-length") == std::to_string(png.size()));
    // An image declared as image/jpeg is served as such; unknown bytes as octet-stream.
    const auto jpeg = call("POST", "/api/v3/pet/5001/uploadImage", write, "", "not really", "image/jpeg");
    BOOST_TEST(
        get(shared_server().port(), std::string(jpeg.json().at("photoUrls").as_array().at(1).as_string()))
            .header("content-type") == "image/jpeg"
    );
    const auto blob =
        call("POST", "/api/v3/pet/5001/uploadImage", write, "", "plain bytes", "application/octet-stream");
    BOOST_TEST(
        get(shared_server().port(), std::string(blob.json().at("photoUrls").as_array().at(2).as_string()))
            .header("content-type") == "application/octet-stream"
    );
    BOOST_TEST(
        error_message(get(shared_server().port(), "/api/v3/pet/5001/images/999999"), 404) == "Image not found"
    );
    BOOST_TEST(
        error_message(get(shared_server().port(), "/api/v3/pet/1/images/1"), 404) == "Image not found"
    );

    // DELETE removes the pet and its images.
    const auto deleted = call("DELETE", "/api/v3/pet/5001", write);
    BOOST_TEST(deleted.status == 200u);
    BOOST_TEST(deleted.body == R"("Pet deleted")");
    BOOST_TEST(call("GET", "/api/v3/pet/5001", "", "special-key").status == 404u);
    BOOST_TEST(get(shared_server().port(), url).status == 404u);
    BOOST_TEST(error_message(call("DELETE", "/api/v3/pet/5001", write), 404) == "Pet not found");
}

BOOST_AUTO_TEST_CASE(add_pet_assigns_ids_and_accepts_forms) {
    const std::string write = token();
    const auto assigned = call_json("POST", "/api/v3/pet", R"({"name":"no id","photoUrls":[]})", write);
    BOOST_TEST_REQUIRE(assigned.status == 200u, assigned.body);
    const auto id = assigned.json().at("id").as_int64();
    BOOST_TEST(id > 10);
    BOOST_TEST(assigned.body.find("\"status\"") == std::string::npos);  // absent stays absent

    const auto form = call(
        "POST",
        "/api/v3/pet",
        write,
        "",
        "id=5002&name=Form+Cat&photoUrls=a&photoUrls=b&status=pending&category.id=2&category.name=Cats&tags="
        "soft",
        "application/x-www-form-urlencoded"
    );
    BOOST_TEST(form.status == 200u, form.body);
    BOOST_TEST(
        form.body ==
        R"({"id":5002,"category":{"id":2,"name":"Cats"},"name":"Form Cat","photoUrls":["a","b"],"tags":[{"name":"soft"}],"status":"pending"})"
    );
    const auto form_put = call(
        "PUT",
        "/api/v3/pet",
        write,
        "",
        "id=5002&name=Form+Cat+2&photoUrls=c",
        "application/x-www-form-urlencoded"
    );
    BOOST_TEST(form_put.body == R"({"id":5002,"name":"Form Cat 2","photoUrls":["c"],"tags":[]})");
    BOOST_TEST(call("DELETE", "/api/v3/pet/5002", write).status == 200u);
    BOOST_TEST(call("DELETE", "/api/v3/pet/" + std::to_string(id), write).status == 200u);
}

BOOST_AUTO_TEST_CASE(pet_bad_input_tables) {
    const std::vector<bad_input> add_table{
        {"{}", 400, "name is required; photoUrls is required"},
        {R"({"name":"x"})", 400, "photoUrls is required"},
        {R"({"photoUrls":[]})", 400, "name is required"},
        {R"({"name":"","photoUrls":[]})", 400, "name must not be empty"},
        {R"({"name":5,"photoUrls":[]})", 400, "name must be a string"},
        {R"({"name":"x","photoUrls":"a"})", 400, "photoUrls must be an array"},
        {R"({"name":"x","photoUrls":[1]})", 400, "photoUrls must be an array of strings"},
        {R"({"name":"x","photoUrls":[],"status":"flying"})",
         400,
         "status must be one of available, pending, sold"},
        {R"({"name":"x","photoUrls":[],"status":5})", 400, "status must be a string"},
        {R"({"id":"abc","name":"x","photoUrls":[]})", 400, "id must be an integer"},
        {R"({"id":1.5,"name":"x","photoUrls":[]})", 400, "id must be an integer"},
        {R"({"id":-1,"name":"x","photoUrls":[]})", 400, "id must be between 0 and 9007199254740991"},
        {R"({"id":18446744073709551615,"name":"x","photoUrls":[]})", 400, "id must be between"},
        {R"({"name":"x","photoUrls":[],"category":"Dogs"})", 400, "category must be an object"},
        {R"({"name":"x","photoUrls":[],"category":{"id":"one"}})", 400, "category.id must be an integer"},
        {R"({"name":"x","photoUrls":[],"tags":{}})", 400, "tags must be an array"},
        {R"({"name":"x","photoUrls":[],"tags":[{"id":"x"}]})", 400, "tags[0].id must be an integer"},
        {R"({"name":"x","photoUrls":[],"tags":["t"]})", 400, "tags[0] must be an object"},
        {R"({"name":)", 400, "Malformed JSON body"},
        {"[]", 400, "the body must be a JSON object"},
        {"", 400, "A request body is required"},
    };
    check_table("POST", "/api/v3/pet", add_table);
    // PUT needs an id of 1 or more; the rest of the table is the same.
    auto put_table = add_table;
    put_table.erase(
        std::remove_if(
            put_table.begin(),
            put_table.end(),
            [](const bad_input& row) { return row.message.rfind("id must be between 0", 0) == 0; }
        ),
        put_table.end()
    );
    put_table.front() = {"{}", 400, "id is required; name is required; photoUrls is required"};
    put_table.push_back({R"({"id":0,"name":"x","photoUrls":[]})", 400, "id must be between 1 and"});
    put_table.push_back({R"({"id":777777,"name":"x","photoUrls":[]})", 404, "Pet not found"});
    check_table("PUT", "/api/v3/pet", put_table);

    const std::string write = token();
    const auto text = call("POST", "/api/v3/pet", write, "", "name=x", "text/plain");
    BOOST_TEST(error_message(text, 415).find("Unsupported Media Type") == 0u);

    // POST /pet/{petId}: query parameters.
    const std::vector<std::pair<std::string, std::pair<unsigned, std::string>>> update_table{
        {"/api/v3/pet/3", {400, "name or status is required"}},
        {"/api/v3/pet/3?status=bad", {400, "status must be one of available, pending, sold"}},
        {"/api/v3/pet/3?name=", {400, "name must not be empty"}},
        {"/api/v3/pet/3?name=a&name=b", {400, "name must be given at most once"}},
        {"/api/v3/pet/abc?name=a", {400, "Invalid ID supplied: petId must be an integer"}},
        {"/api/v3/pet/888888?name=a", {404, "Pet not found"}},
    };
    for (const auto& [target, expected] : update_table) {
        BOOST_TEST_CONTEXT(target) {
            BOOST_TEST(error_message(call("POST", target, write), expected.first) == expected.second);
        }
    }
    BOOST_TEST(error_message(call("DELETE", "/api/v3/pet/abc", write), 400).find("Invalid ID") == 0u);
    BOOST_TEST(error_message(call("DELETE", "/api/v3/pet/888888", write), 404) == "Pet not found");
    BOOST_TEST(
        error_message(get(shared_server().port(), "/api/v3/pet/x/images/1"), 400).find("Invalid ID") == 0u
    );
}

BOOST_AUTO_TEST_CASE(upload_image_bad_input_and_budget) {
    const std::string write = token();
    BOOST_TEST(
        call_json("POST", "/api/v3/pet", R"({"id":5003,"name":"uploads","photoUrls":[]})", write).status ==
        200u
    );
    BOOST_TEST(
        error_message(
            call("POST", "/api/v3/pet/5003/uploadImage", write, "", "", "application/octet-stream"), 400
        ) == "No file uploaded: the request body is empty"
    );
    BOOST_TEST(
        error_message(call("POST", "/api/v3/pet/5003/uploadImage", write, "", "x", "text/plain"), 415)
            .find("Unsupported Media Type") == 0u
    );
    BOOST_TEST(
        error_message(
            call("POST", "/api/v3/pet/888888/uploadImage", write, "", "x", "application/octet-stream"), 404
        ) == "Pet not found"
    );
    BOOST_TEST(
        error_message(
            call("POST", "/api/v3/pet/abc/uploadImage", write, "", "x", "application/octet-stream"), 400
        )
            .find("Invalid ID") == 0u
    );
    BOOST_TEST(
        error_message(
            call(
                "POST",
                "/api/v3/pet/5003/uploadImage?additionalMetadata=a&additionalMetadata=b",
                write,
                "",
                "x",
                "application/octet-stream"
            ),
            400
        ) == "additionalMetadata must be given at most once"
    );
    // Over the body limit (64 KiB in tests): refused before the handler runs.
    BOOST_TEST(
        call(
            "POST",
            "/api/v3/pet/5003/uploadImage",
            write,
            "",
            std::string(70 * 1024, 'x'),
            "application/octet-stream"
        )
            .status == 413u
    );
    // The image budget (256 KiB in tests): the fifth 60 KiB image does not fit; deleting the pet frees it.
    const std::string chunk(60 * 1024, 'y');
    for (int i = 0; i < 4; ++i) {
        BOOST_TEST(
            call("POST", "/api/v3/pet/5003/uploadImage", write, "", chunk, "application/octet-stream")
                .status == 200u
        );
    }
    BOOST_TEST(
        error_message(
            call("POST", "/api/v3/pet/5003/uploadImage", write, "", chunk, "application/octet-stream"), 507
        ) == "Image storage is full"
    );
    BOOST_TEST(call("DELETE", "/api/v3/pet/5003", write).status == 200u);
    BOOST_TEST(
        call_json("POST", "/api/v3/pet", R"({"id":5003,"name":"uploads","photoUrls":[]})", write).status ==
        200u
    );
    BOOST_TEST(
        call("POST", "/api/v3/pet/5003/uploadImage", write, "", chunk, "application/octet-stream").status ==
        200u
    );
    BOOST_TEST(call("DELETE", "/api/v3/pet/5003", write).status == 200u);
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(pet_store_orders)

BOOST_AUTO_TEST_CASE(inventory_and_order_lifecycle) {
    const auto inventory = call("GET", "/api/v3/store/inventory", "", "special-key");
    BOOST_TEST(inventory.status == 200u);
    BOOST_TEST(inventory.body == R"({"placed":100,"approved":50,"delivered":50})");

    const auto seed = get(shared_server().port(), "/api/v3/store/order/1");
    BOOST_TEST(seed.status == 200u);
    BOOST_TEST(
        seed.body ==
        R"({"id":1,"petId":1,"quantity":100,"shipDate":"2026-01-01T00:00:00.000Z","status":"placed","complete":true})"
    );

    const auto placed = post_json(
        shared_server().port(),
        "/api/v3/store/order",
        R"({"id":7001,"petId":2,"quantity":3,"shipDate":"2026-05-06T07:08:09.5+02:00","status":"approved","complete":false})"
    );
    BOOST_TEST(placed.status == 200u, placed.body);
    BOOST_TEST(
        placed.body ==
        R"({"id":7001,"petId":2,"quantity":3,"shipDate":"2026-05-06T05:08:09.500Z","status":"approved","complete":false})"
    );
    BOOST_TEST(get(shared_server().port(), "/api/v3/store/order/7001").body == placed.body);
    BOOST_TEST(
        call("GET", "/api/v3/store/inventory", "", "special-key").body ==
        R"({"placed":100,"approved":53,"delivered":50})"
    );

    // A form body; no id assigns one; status defaults to placed and complete to false.
    const auto form = send_request(
        shared_server().port(),
        {.method = "POST",
         .target = "/api/v3/store/order",
         .body = "petId=4&quantity=2",
         .content_type = "application/x-www-form-urlencoded"}
    );
    BOOST_TEST_REQUIRE(form.status == 200u, form.body);
    const auto form_id = form.json().at("id").as_int64();
    BOOST_TEST(form.json().at("status").as_string() == "placed");
    BOOST_TEST(form.json().at("complete").as_bool() == false);
    BOOST_TEST(form.body.find("shipDate") == std::string::npos);

    const auto deleted =
        send_request(shared_server().port(), {.method = "DELETE", .target = "/api/v3/store/order/7001"});
    BOOST_TEST(deleted.status == 200u);
    BOOST_TEST(deleted.body == R"("Order deleted")");
    BOOST_TEST(
        send_request(
            shared_server().port(),
            {.method = "DELETE", .target = "/api/v3/store/order/" + std::to_string(form_id)}
        )
            .status == 200u
    );
    BOOST_TEST(
        error_message(get(shared_server().port(), "/api/v3/store/order/7001"), 404) == "Order not found"
    );
    BOOST_TEST(call("GET", "/api/v3/store/inventory", "", "special-key").body == inventory.body);
}

BOOST_AUTO_TEST_CASE(order_bad_input_table) {
    const std::vector<bad_input> table{
        {"{}", 400, "petId is required; quantity is required"},
        {R"({"petId":1})", 400, "quantity is required"},
        {R"({"petId":1,"quantity":0})", 400, "quantity must be between 1 and 1000000"},
        {R"({"petId":1,"quantity":-5})", 400, "quantity must be between 1 and 1000000"},
        {R"({"petId":1,"quantity":"two"})", 400, "quantity must be an integer"},
        {R"({"petId":"one","quantity":1})", 400, "petId must be an integer"},
        {R"({"petId":1,"quantity":1,"status":"shipped"})",
         400,
         "status must be one of placed, approved, delivered"},
        {R"({"petId":1,"quantity":1,"shipDate":"yesterday"})", 400, "shipDate must be an RFC 3339 date-time"},
        {R"({"petId":1,"quantity":1,"shipDate":"2026-02-30T00:00:00Z"})",
         400,
         "shipDate must be an RFC 3339"},
        {R"({"petId":1,"quantity":1,"complete":"yes"})", 400, "complete must be a boolean"},
        {R"({"id":-2,"petId":1,"quantity":1})", 400, "id must be between 0 and"},
        {R"({"petId":424242,"quantity":1})", 400, "petId 424242 does not refer to an existing pet"},
        {"[1]", 400, "the body must be a JSON object"},
        {"{", 400, "Malformed JSON body"},
    };
    check_table("POST", "/api/v3/store/order", table);
    const auto port = shared_server().port();
    BOOST_TEST(
        error_message(get(port, "/api/v3/store/order/abc"), 400) ==
        "Invalid ID supplied: orderId must be an integer"
    );
    BOOST_TEST(error_message(get(port, "/api/v3/store/order/999999"), 404) == "Order not found");
    BOOST_TEST(
        error_message(send_request(port, {.method = "DELETE", .target = "/api/v3/store/order/x1"}), 400)
            .find("Invalid ID") == 0u
    );
    BOOST_TEST(
        error_message(
            send_request(port, {.method = "DELETE", .target = "/api/v3/store/order/999999"}), 404
        ) == "Order not found"
    );
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(pet_users)

BOOST_AUTO_TEST_CASE(seed_user_login_logout) {
    const auto port = shared_server().port();
    const auto user = get(port, "/api/v3/user/user1");
    BOOST_TEST(user.status == 200u);
    BOOST_TEST(
        user.body ==
        R"({"id":1,"username":"user1","firstName":"first name 1","lastName":"last name 1","email":"email1@test.com","phone":"123-456-7890","userStatus":1})"
    );
    BOOST_TEST(get(port, "/api/v3/user/user5").json().at("userStatus").as_int64() == 2);
    BOOST_TEST(get(port, "/api/v3/user/user10").json().at("id").as_int64() == 10);

    const auto login = get(port, "/api/v3/user/login?username=user1&password=XXXXXXXXXXX");
    BOOST_TEST_REQUIRE(login.status == 200u, login.body);
    const auto session = login.json();
    BOOST_TEST(std::string(session.as_string()).rfind("Logged in user session: ", 0) == 0u);
    BOOST_TEST(login.header("x-rate-limit") == "5000");
    const std::string expires = login.header("x-expires-after");
    BOOST_TEST(expires.size() == 24u, expires);
    BOOST_TEST(expires.back() == 'Z');
    BOOST_TEST(get(port, "/api/v3/user/login?username=user1&password=XXXXXXXXXXX").body != login.body);

    const std::vector<std::string> invalid{
        "username=user1&password=wrong",
        "username=nobody&password=XXXXXXXXXXX",
        "username=user1",
        "password=XXXXXXXXXXX",
        "",
        "username=user1&password=",
        "username=user1&password=XXXXXXXXXXX&password=XXXXXXXXXXX",
    };
    for (const auto& query : invalid) {
        BOOST_TEST_CONTEXT(query) {
            const auto reply = get(port, "/api/v3/user/login?" + query);
            BOOST_TEST(error_message(reply, 400) == "Invalid username/password supplied");
            BOOST_TEST(reply.header("x-rate-limit").empty());
        }
    }
    const auto logout = get(port, "/api/v3/user/logout");
    BOOST_TEST(logout.status == 200u);
    BOOST_TEST(logout.body == R"("User logged out")");
}

BOOST_AUTO_TEST_CASE(user_lifecycle_create_update_rename_delete) {
    const auto port = shared_server().port();
    const auto created = post_json(
        port,
        "/api/v3/user",
        R"({"username":"e2e-alice","firstName":"Alice","email":"alice@example.com","password":"first-pass","userStatus":1})"
    );
    BOOST_TEST_REQUIRE(created.status == 200u, created.body);
    BOOST_TEST(created.body.find("password") == std::string::npos);
    BOOST_TEST(created.body.find("first-pass") == std::string::npos);
    BOOST_TEST(created.json().at("id").as_int64() > 10);
    BOOST_TEST(get(port, "/api/v3/user/e2e-alice").body == created.body);
    BOOST_TEST(get(port, "/api/v3/user/login?username=e2e-alice&password=first-pass").status == 200u);

    // No password in the update keeps the old one.
    const auto updated = send_request(
        port,
        {.method = "PUT",
         .target = "/api/v3/user/e2e-alice",
         .body = R"({"username":"e2e-alice","lastName":"Liddell"})",
         .content_type = "application/json"}
    );
    BOOST_TEST(updated.status == 200u, updated.body);
    BOOST_TEST(updated.json().at("lastName").as_string() == "Liddell");
    BOOST_TEST(updated.json().at("id").as_int64() == created.json().at("id").as_int64());
    BOOST_TEST(get(port, "/api/v3/user/login?username=e2e-alice&password=first-pass").status == 200u);

    // A new password (form body) replaces the old one; a new username renames. Replacing the password
    // needs the user's own credentials (issue 45): anonymous, it is refused and changes nothing.
    const auto anonymous = send_request(
        port,
        {.method = "PUT",
         .target = "/api/v3/user/e2e-alice",
         .body = "username=e2e-alice2&password=second-pass",
         .content_type = "application/x-www-form-urlencoded"}
    );
    BOOST_TEST(anonymous.status == 401u);
    BOOST_TEST(get(port, "/api/v3/user/login?username=e2e-alice&password=first-pass").status == 200u);
    const auto renamed = send_request(
        port,
        {.method = "PUT",
         .target = "/api/v3/user/e2e-alice",
         .body = "username=e2e-alice2&password=second-pass",
         .content_type = "application/x-www-form-urlencoded",
         .headers = {{"Authorization", "Basic ZTJlLWFsaWNlOmZpcnN0LXBhc3M="}}}
    );
    BOOST_TEST(renamed.status == 200u, renamed.body);
    BOOST_TEST(get(port, "/api/v3/user/e2e-alice").status == 404u);
    BOOST_TEST(get(port, "/api/v3/user/login?username=e2e-alice2&password=first-pass").status == 400u);
    BOOST_TEST(get(port, "/api/v3/user/login?username=e2e-alice2&password=second-pass").status == 200u);

    const auto taken = send_request(
        port,
        {.method = "PUT",
         .target = "/api/v3/user/e2e-alice2",
         .body = R"({"username":"user2"})",
         .content_type = "application/json"}
    );
    BOOST_TEST(error_message(taken, 409) == "username user2 is already taken");

    const auto deleted = send_request(port, {.method = "DELETE", .target = "/api/v3/user/e2e-alice2"});
    BOOST_TEST(deleted.status == 200u);
    BOOST_TEST(deleted.body == R"("User deleted")");
    BOOST_TEST(error_message(get(port, "/api/v3/user/e2e-alice2"), 404) == "User not found");
    BOOST_TEST(
        error_message(send_request(port, {.method = "DELETE", .target = "/api/v3/user/e2e-alice2"}), 404) ==
        "User not found"
    );
}

BOOST_AUTO_TEST_CASE(create_with_list) {
    const auto port = shared_server().port();
    const auto created = post_json(
        port,
        "/api/v3/user/createWithList",
        R"([{"username":"e2e-list-1","password":"p1"},{"id":0,"username":"e2e-list-2","email":"two@example.com"}])"
    );
    BOOST_TEST_REQUIRE(created.status == 200u, created.body);
    const auto doc = created.json();
    const auto& users = doc.as_array();
    BOOST_TEST(users.size() == 2u);
    BOOST_TEST(users.at(1).at("email").as_string() == "two@example.com");
    BOOST_TEST(created.body.find("password") == std::string::npos);
    BOOST_TEST(get(port, "/api/v3/user/login?username=e2e-list-1&password=p1").status == 200u);
    // A user created without a password cannot log in with any.
    BOOST_TEST(get(port, "/api/v3/user/login?username=e2e-list-2&password=x").status == 400u);
    for (const std::string name : {"e2e-list-1", "e2e-list-2"}) {
        BOOST_TEST(send_request(port, {.method = "DELETE", .target = "/api/v3/user/" + name}).status == 200u);
    }
}

BOOST_AUTO_TEST_CASE(user_bad_input_tables) {
    const std::vector<bad_input> create_table{
        {"{}", 400, "username is required"},
        {R"({"username":"a/b"})", 400, "username must be 1-64 characters"},
        {R"({"username":""})", 400, "username must be 1-64 characters"},
        {R"({"username":7})", 400, "username must be a string"},
        {R"({"username":"ok","email":"nope"})", 400, "email must be an email"},
        {R"({"username":"ok","userStatus":"x"})", 400, "userStatus must be an integer"},
        {R"({"username":"ok","password":""})", 400, "password must not be empty"},
        {R"({"username":"ok","id":"7"})", 400, "id must be an integer"},
        {"[]", 400, "the body must be a JSON object"},
    };
    check_table("POST", "/api/v3/user", create_table);
    check_table("PUT", "/api/v3/user/user3", create_table);
    const std::vector<bad_input> list_table{
        {"{}", 400, "the body must be a JSON array of User objects"},
        {"[]", 400, "the list must hold 1 to 50 users"},
        {R"([{"username":"e2e-ok"},{}])", 400, "[1].username is required"},
        {R"([{"username":"e2e-ok"},5])", 400, "[1] must be a User object"},
    };
    check_table("POST", "/api/v3/user/createWithList", list_table);
    const auto port = shared_server().port();
    BOOST_TEST(get(port, "/api/v3/user/e2e-ok").status == 404u);  // all or nothing
    const auto form_list = send_request(
        port,
        {.method = "POST",
         .target = "/api/v3/user/createWithList",
         .body = "username=x",
         .content_type = "application/x-www-form-urlencoded"}
    );
    BOOST_TEST(error_message(form_list, 415) == "Unsupported Media Type: send application/json");

    BOOST_TEST(error_message(get(port, "/api/v3/user/nobody-here"), 404) == "User not found");
    BOOST_TEST(error_message(get(port, "/api/v3/user/bad%2Fname"), 400) == "Invalid username supplied");
    BOOST_TEST(error_message(get(port, "/api/v3/user/bad%20name"), 400) == "Invalid username supplied");
    const auto put_unknown = send_request(
        port,
        {.method = "PUT",
         .target = "/api/v3/user/nobody-here",
         .body = R"({"username":"x"})",
         .content_type = "application/json"}
    );
    BOOST_TEST(error_message(put_unknown, 404) == "User not found");
    BOOST_TEST(
        error_message(send_request(port, {.method = "DELETE", .target = "/api/v3/user/nobody-here"}), 404) ==
        "User not found"
    );
}

BOOST_AUTO_TEST_SUITE_END()
