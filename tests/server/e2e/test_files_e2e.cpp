// End to end over HTTP: the pictures storefront draws for its seed data (every seed URL decodes as a PNG of
// the right size, ETag and 304), and uploads (sniffed, never trusted; size limit; policy) served back.

#include <gd.h>
#include <string>
#include <vector>

#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>

#include "http_client.hpp"
#include "test_server.hpp"

namespace json = boost::json;
using namespace storefront;
using namespace storefront::test;

namespace {

// The path of an absolute URL on the server under test.
std::string path_of(std::string_view url) {
    const auto scheme = url.find("://");
    BOOST_TEST_REQUIRE(scheme != std::string_view::npos);
    return std::string(url.substr(url.find('/', scheme + 3)));
}

struct png_size {
    int width = 0;
    int height = 0;
};

// Decoded with libgd: a body that is not a whole PNG gives 0x0.
png_size decode_png(const std::string& bytes) {
    gdImagePtr im = gdImageCreateFromPngPtr(static_cast<int>(bytes.size()), const_cast<char*>(bytes.data()));
    if (im == nullptr) {
        return {};
    }
    const png_size size{gdImageSX(im), gdImageSY(im)};
    gdImageDestroy(im);
    return size;
}

const std::string tiny_png = [] {
    gdImagePtr im = gdImageCreate(4, 4);
    gdImageColorAllocate(im, 10, 20, 30);
    int size = 0;
    void* data = gdImagePngPtr(im, &size);
    std::string out(static_cast<const char*>(data), static_cast<std::size_t>(size));
    gdFree(data);
    gdImageDestroy(im);
    return out;
}();

http_reply upload(
    std::uint16_t port,
    const std::string& field,
    const std::string& filename,
    const std::string& declared_type,
    const std::string& bytes,
    const std::string& token = {}
) {
    const std::string boundary = "----storefront-test-boundary";
    std::string body = "--" + boundary + "\r\nContent-Disposition: form-data; name=\"" + field +
                       "\"; filename=\"" + filename + "\"\r\nContent-Type: " + declared_type + "\r\n\r\n" +
                       bytes + "\r\n--" + boundary + "--\r\n";
    http_request_spec spec{
        .method = "POST",
        .target = "/api/v1/files/upload",
        .body = body,
        .content_type = "multipart/form-data; boundary=" + boundary};
    if (!token.empty()) {
        spec.headers.emplace_back("Authorization", "Bearer " + token);
    }
    return send_request(port, spec);
}

server::server_config upload_config(core::write_policy policy) {
    auto c = test_config();
    c.storage.generated_locations = 1000;
    c.limits.upload_limit = 2048;
    c.write_policy = policy;
    return c;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(drawn_images)

BOOST_AUTO_TEST_CASE(every_seed_image_url_is_a_png_served_here) {
    const auto port = shared_server().port();
    std::vector<std::string> urls;
    const auto products = get(port, "/api/v1/products?limit=100").json();
    const auto categories = get(port, "/api/v1/categories").json();
    const auto users = get(port, "/api/v1/users").json();
    for (const auto& p : products.as_array()) {
        for (const auto& image : p.at("images").as_array()) {
            urls.emplace_back(image.as_string());
        }
    }
    for (const auto& c : categories.as_array()) {
        urls.emplace_back(c.at("image").as_string());
    }
    for (const auto& u : users.as_array()) {
        urls.emplace_back(u.at("avatar").as_string());
    }
    BOOST_TEST(urls.size() > 130u);
    for (const auto& url : urls) {
        BOOST_TEST_CONTEXT(url) {
            BOOST_TEST(url.rfind("http://127.0.0.1:", 0) == 0u);
            const auto reply = get(port, path_of(url));
            BOOST_TEST(reply.status == 200u);
            BOOST_TEST(reply.header("content-type") == "image/png");
            const auto size = decode_png(reply.body);
            const bool avatar = url.find("/avatars/") != std::string::npos;
            BOOST_TEST(size.width == (avatar ? 256 : 600));
            BOOST_TEST(size.height == (avatar ? 256 : 400));
            BOOST_TEST(reply.body.size() < 20'000u);
        }
    }
}

BOOST_AUTO_TEST_CASE(etags_answer_304) {
    const auto port = shared_server().port();
    const auto first = get(port, "/api/v1/images/products/2-1.png");
    const std::string etag = first.header("etag");
    BOOST_TEST(etag.size() == 18u);
    BOOST_TEST(first.header("cache-control") == "public, max-age=3600");
    const auto again = send_request(
        port, {.target = "/api/v1/images/products/2-1.png", .headers = {{"If-None-Match", etag}}}
    );
    BOOST_TEST(again.status == 304u);
    BOOST_TEST(again.body.empty());
    BOOST_TEST(again.header("etag") == etag);
    const auto weak = send_request(
        port,
        {.target = "/api/v1/images/products/2-1.png", .headers = {{"If-None-Match", "\"x\", W/" + etag}}}
    );
    BOOST_TEST(weak.status == 304u);
    const auto other = send_request(
        port, {.target = "/api/v1/images/products/2-2.png", .headers = {{"If-None-Match", etag}}}
    );
    BOOST_TEST(other.status == 200u);  // another picture of the same product differs
    BOOST_TEST(other.body != first.body);
}

BOOST_AUTO_TEST_CASE(unknown_images_are_404) {
    const auto port = shared_server().port();
    for (const std::string path :
         {"/api/v1/images/products/999-1.png",
          "/api/v1/images/products/1-11.png",
          "/api/v1/images/products/1.jpg",
          "/api/v1/images/categories/9.png",
          "/api/v1/images/avatars/99.png",
          "/api/v1/images/other/1.png",
          "/api/v1/images/products/abc.png",
          "/api/v1/images/categories/1-2.png"}) {
        BOOST_TEST_CONTEXT(path) {
            const auto reply = get(port, path);
            BOOST_TEST(reply.status == 404u);
            BOOST_TEST(reply.json().at("message").as_string() == "Image not found");
        }
    }
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(uploads)

BOOST_AUTO_TEST_CASE(an_image_declared_as_text_is_sniffed_stored_and_served) {
    running_server server(upload_config(core::write_policy::open));
    const auto created = upload(server.port(), "file", "cat.txt", "text/plain", tiny_png);
    BOOST_TEST_REQUIRE(created.status == 201u);
    const auto body = created.json();
    BOOST_TEST(body.at("originalname").as_string() == "cat.txt");
    const std::string filename(body.at("filename").as_string());
    BOOST_TEST(filename.substr(filename.size() - 4) == ".png");
    const std::string location(body.at("location").as_string());
    BOOST_TEST(location.find("/api/v1/files/" + filename) != std::string::npos);

    const auto served = get(server.port(), path_of(location));
    BOOST_TEST(served.status == 200u);
    BOOST_TEST(served.header("content-type") == "image/png");
    BOOST_TEST(served.body == tiny_png);
    const auto cached = send_request(
        server.port(), {.target = path_of(location), .headers = {{"If-None-Match", served.header("etag")}}}
    );
    BOOST_TEST(cached.status == 304u);

    // The location is a URL the catalogue accepts.
    const auto product = post_json(
        server.port(),
        "/api/v1/products",
        R"({"title":"Uploaded","price":1,"description":"d","categoryId":1,"images":[")" + location + R"("]})"
    );
    BOOST_TEST(product.status == 201u);
    BOOST_TEST(get(server.port(), "/api/v1/files/0123456789abcdef0123456789abcdef.png").status == 404u);
}

BOOST_AUTO_TEST_CASE(bad_uploads_are_refused) {
    running_server server(upload_config(core::write_policy::open));
    const auto html =
        upload(server.port(), "file", "page.png", "image/png", "<html><script>alert(1)</script></html>");
    BOOST_TEST(html.status == 415u);
    BOOST_TEST(
        html.json().at("message").as_string() == "Only PNG, JPEG, GIF and WebP images can be uploaded"
    );
    const auto svg = upload(
        server.port(), "file", "x.svg", "image/svg+xml", "<svg xmlns=\"http://www.w3.org/2000/svg\"/>"
    );
    BOOST_TEST(svg.status == 415u);
    const auto wrong_field = upload(server.port(), "image", "cat.png", "image/png", tiny_png);
    BOOST_TEST(wrong_field.status == 400u);
    BOOST_TEST(wrong_field.json().at("message").as_array().at(0).as_string() == "file should not be empty");
    const auto too_big =
        upload(server.port(), "file", "big.png", "image/png", tiny_png + std::string(4096, 'x'));
    BOOST_TEST(too_big.status == 413u);
    const auto huge = upload(server.port(), "file", "huge.png", "image/png", std::string(100 * 1024, 'x'));
    BOOST_TEST(huge.status == 413u);  // beyond the route's body limit: refused before the body is read
    const auto json_body = post_json(server.port(), "/api/v1/files/upload", "{}");
    BOOST_TEST(json_body.status == 415u);
    const auto malformed = send_request(
        server.port(),
        {.method = "POST",
         .target = "/api/v1/files/upload",
         .body = "--b\r\nno headers",
         .content_type = "multipart/form-data; boundary=b"}
    );
    BOOST_TEST(malformed.status == 400u);
}

BOOST_AUTO_TEST_CASE(uploads_follow_the_write_policy) {
    running_server server(upload_config(core::write_policy::roles));
    BOOST_TEST(upload(server.port(), "file", "cat.png", "image/png", tiny_png).status == 401u);
    const auto login =
        post_json(server.port(), "/api/v1/auth/login", R"({"email":"admin@mail.com","password":"admin123"})");
    const std::string admin(login.json().at("access_token").as_string());
    BOOST_TEST(upload(server.port(), "file", "cat.png", "image/png", tiny_png, admin).status == 201u);
}

BOOST_AUTO_TEST_SUITE_END()
