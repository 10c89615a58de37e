// End to end over HTTP: ETag on every deterministic GET (lists, items, pictures, documents; not random
// samples or live answers), If-None-Match (exact, weak, list, `*`) to 304, ETags that follow writes, and
// gzip/br bodies (Accept-Encoding with q-values and identity;q=0) decoded back to the identity bytes.
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>

#include "common/decompress.hpp"
#include "http_client.hpp"
#include "test_server.hpp"

using namespace storefront;
using namespace storefront::test;

// A namespace of its own: a unity build compiles this file beside others whose helpers share names.
namespace http_caching_e2e_file {
namespace {

using header_list = std::vector<std::pair<std::string, std::string>>;

http_reply fetch(
    std::uint16_t port, const std::string& target, header_list headers = {}, const std::string& method = "GET"
) {
    return send_request(port, {.method = method, .target = target, .headers = std::move(headers)});
}

std::string access_token(std::uint16_t port) {
    const auto reply =
        post_json(port, "/api/v1/auth/login", R"({"email":"john@mail.com","password":"changeme"})");
    BOOST_TEST_REQUIRE(reply.status == 201u);
    return std::string(reply.json().at("access_token").as_string());
}

// A GET that should carry an ETag: its target and any header it needs (the profile's token).
struct tagged_get {
    std::string target;
    bool needs_token = false;
};

const std::vector<tagged_get> tagged_gets{
    {"/api/v1/products"},
    {"/api/v1/products?offset=10&limit=5"},
    {"/api/v1/products/1"},
    {"/api/v1/products/slug/majestic-mountain-graphic-t-shirt"},
    {"/api/v1/products/1/related"},
    {"/api/v1/categories"},
    {"/api/v1/categories/1"},
    {"/api/v1/categories/1/products"},
    {"/api/v1/users"},
    {"/api/v1/users/1"},
    {"/api/v1/images/products/1-1.png"},
    {"/api/v1/images/avatars/1.png"},
    {"/api/v1/locations?origin=4.6482784,-74.2726198&size=5"},
    {"/api/v1/openapi.json"},
    {"/api/v3/openapi.json"},
    {"/docs"},
    {"/api/v3/pet/findByStatus?status=available"},
    {"/api/v1/auth/profile", true},
};

header_list with_token(const tagged_get& g, const std::string& token, header_list more = {}) {
    if (g.needs_token) {
        more.emplace_back("Authorization", "Bearer " + token);
    }
    return more;
}

// A page large enough to be compressed (about 10 KB) and one too small (one category, under 1 KB).
constexpr const char* large_page = "/api/v1/products?offset=0&limit=20";
constexpr const char* small_item = "/api/v1/categories/1";

}  // namespace

BOOST_AUTO_TEST_SUITE(http_caching_e2e)

BOOST_AUTO_TEST_CASE(deterministic_gets_carry_a_strong_etag) {
    const auto port = shared_server().port();
    const std::string token = access_token(port);
    for (const auto& g : tagged_gets) {
        BOOST_TEST_CONTEXT(g.target) {
            const auto first = fetch(port, g.target, with_token(g, token));
            BOOST_TEST_REQUIRE(first.status == 200u);
            const std::string etag = first.header("etag");
            BOOST_TEST(etag.size() == 18u);  // "<16 hex digits>"
            BOOST_TEST(etag.front() == '"');
            BOOST_TEST(fetch(port, g.target, with_token(g, token)).header("etag") == etag);  // stable
            const auto head = fetch(port, g.target, with_token(g, token), "HEAD");
            BOOST_TEST(head.status == 200u);
            BOOST_TEST(head.header("etag") == etag);
            BOOST_TEST(head.header("content-length") == std::to_string(first.body.size()));
        }
    }
}

BOOST_AUTO_TEST_CASE(if_none_match_answers_304_without_a_body) {
    const auto port = shared_server().port();
    const std::string token = access_token(port);
    for (const auto& g : tagged_gets) {
        const auto first = fetch(port, g.target, with_token(g, token));
        const std::string etag = first.header("etag");
        struct condition {
            std::string if_none_match;
            unsigned status;
        };
        const std::vector<condition> conditions{
            {etag, 304},
            {"W/" + etag, 304},
            {R"("0000000000000000", )" + etag, 304},
            {"\"a\",W/" + etag + " , \"b\"", 304},
            {"*", 304},
            {R"("0000000000000000")", 200},
            {"W/\"0\", \"1\"", 200},
            {etag.substr(1, 16), 200},  // unquoted: malformed, matches nothing
        };
        for (const auto& c : conditions) {
            BOOST_TEST_CONTEXT(g.target << " If-None-Match: " << c.if_none_match) {
                for (const std::string method : {"GET", "HEAD"}) {
                    const auto reply = fetch(
                        port, g.target, with_token(g, token, {{"If-None-Match", c.if_none_match}}), method
                    );
                    BOOST_TEST(reply.status == c.status);
                    BOOST_TEST(reply.header("etag") == etag);
                    if (c.status == 304u) {
                        BOOST_TEST(reply.body.empty());
                        BOOST_TEST(reply.header("content-length").empty());
                        BOOST_TEST(reply.header("content-encoding").empty());
                    } else if (method == "GET") {
                        BOOST_TEST(reply.body == first.body);
                    }
                }
            }
        }
    }
}

// Location answers are tagged by what they hold (the set, the locations, the distances written) rather
// than by hashing their bytes: equal bodies share a tag, and every difference in the bytes changes it.
BOOST_AUTO_TEST_CASE(location_answers_share_a_tag_exactly_when_their_bytes_are_equal) {
    const auto port = shared_server().port();
    struct answer {
        std::string body;
        std::string etag;
    };
    const auto get = [&](const std::string& query) {
        const auto reply = fetch(port, "/api/v1/locations?" + query);
        BOOST_TEST_REQUIRE(reply.status == 200u);
        return answer{reply.body, reply.header("etag")};
    };
    // Two origins a metre apart: the same five locations, at distances that differ in the metres written.
    const std::vector<answer> answers{
        get("origin=4.6482784,-74.2726198&size=5"),
        get("origin=4.6482874,-74.2726198&size=5"),
        get("origin=4.6482784,-74.2726198&size=5&withDistance=true"),
        get("origin=4.6482874,-74.2726198&size=5&withDistance=true"),
        get("origin=4.6482784,-74.2726198&size=4"),
        get("origin=0,-140&size=5"),
        get("origin=0,-140&size=5&radius=20000"),
    };
    BOOST_TEST(answers[0].body == answers[1].body);
    BOOST_TEST(answers[2].body != answers[3].body);
    BOOST_TEST(answers[5].body == answers[6].body);
    for (std::size_t i = 0; i < answers.size(); ++i) {
        for (std::size_t j = i + 1; j < answers.size(); ++j) {
            BOOST_TEST_CONTEXT("answers " << i << " and " << j) {
                BOOST_TEST((answers[i].etag == answers[j].etag) == (answers[i].body == answers[j].body));
            }
        }
    }
}

BOOST_AUTO_TEST_CASE(random_live_and_failed_answers_carry_no_etag) {
    const auto port = shared_server().port();
    const std::vector<std::string> untagged{
        "/api/v1/locations",
        "/api/v1/locations?size=30",
        "/metrics",
        "/healthz",
        "/readyz",
        "/api/v1/products/99999",
        "/api/v1/products?limit=-1",
        "/api/v1/nothing-here",
    };
    for (const auto& target : untagged) {
        BOOST_TEST_CONTEXT(target) {
            const auto reply = fetch(port, target, {{"If-None-Match", "*"}});
            BOOST_TEST(reply.status != 304u);
            BOOST_TEST(reply.header("etag").empty());
        }
    }
    const auto login =
        post_json(port, "/api/v1/auth/login", R"({"email":"john@mail.com","password":"changeme"})");
    BOOST_TEST(login.status == 201u);
    BOOST_TEST(login.header("etag").empty());
}

BOOST_AUTO_TEST_CASE(writes_change_the_etags_of_what_they_change) {
    auto config = test_config();
    config.write_policy = core::write_policy::open;
    running_server server(config);
    const auto port = server.port();
    const auto tag_of = [&](const std::string& target) { return fetch(port, target).header("etag"); };
    const auto send = [&](const std::string& method, const std::string& target, const std::string& body) {
        return send_request(
            port, {.method = method, .target = target, .body = body, .content_type = "application/json"}
        );
    };
    const std::string last_page = "/api/v1/products?offset=50&limit=10";
    const std::string first_page = "/api/v1/products";
    const std::string first_page_tag = tag_of(first_page);
    const std::string user_tag = tag_of("/api/v1/users/1");
    const std::string before_create = tag_of(last_page);

    // create: the last page gains the item; the first page and a user keep their tags (304)
    const auto created = send(
        "POST",
        "/api/v1/products",
        R"({"title":"Blue Mug","price":12.5,"description":"A mug","categoryId":1,)"
        R"("images":["https://placehold.co/600x400"]})"
    );
    BOOST_TEST_REQUIRE(created.status == 201u);
    BOOST_TEST(created.header("etag").empty());  // not a GET
    const std::string after_create = tag_of(last_page);
    BOOST_TEST(after_create != before_create);
    BOOST_TEST(fetch(port, last_page, {{"If-None-Match", before_create}}).status == 200u);
    BOOST_TEST(fetch(port, last_page, {{"If-None-Match", after_create}}).status == 304u);
    BOOST_TEST(fetch(port, first_page, {{"If-None-Match", first_page_tag}}).status == 304u);
    BOOST_TEST(fetch(port, "/api/v1/users/1", {{"If-None-Match", user_tag}}).status == 304u);

    // update: the item, its slug, its page and its category's products change
    const std::string item = "/api/v1/products/" + std::to_string(created.json().at("id").as_int64());
    const std::vector<std::string> changed{
        item,
        "/api/v1/products/slug/blue-mug",
        last_page,
        "/api/v1/categories/1/products?offset=0&limit=100"};
    std::vector<std::string> before_update;
    for (const auto& target : changed) {
        before_update.push_back(tag_of(target));
    }
    BOOST_TEST_REQUIRE(send("PUT", item, R"({"price":20})").status == 200u);
    for (std::size_t i = 0; i < changed.size(); ++i) {
        BOOST_TEST_CONTEXT("update " << changed[i]) {
            const std::string now = tag_of(changed[i]);
            BOOST_TEST(!now.empty());
            BOOST_TEST(now != before_update[i]);
            const auto stale = fetch(port, changed[i], {{"If-None-Match", before_update[i]}});
            BOOST_TEST(stale.status == 200u);
            BOOST_TEST(stale.header("etag") == now);
            BOOST_TEST(fetch(port, changed[i], {{"If-None-Match", now}}).status == 304u);
        }
    }
    BOOST_TEST(tag_of(first_page) == first_page_tag);

    // delete: the page is as before the create (same bytes, same tag); the item is gone (404, no ETag)
    const std::string item_tag = tag_of(item);
    BOOST_TEST_REQUIRE(send_request(port, {.method = "DELETE", .target = item}).status == 200u);
    BOOST_TEST(tag_of(last_page) == before_create);
    BOOST_TEST(fetch(port, last_page, {{"If-None-Match", after_create}}).status == 200u);
    const auto gone = fetch(port, item, {{"If-None-Match", item_tag}});
    BOOST_TEST(gone.status == 404u);
    BOOST_TEST(gone.header("etag").empty());
}

BOOST_AUTO_TEST_CASE(gzip_and_br_decode_to_the_identity_bytes) {
    const auto port = shared_server().port();
    const std::vector<std::string> targets{
        large_page,
        "/api/v1/products",
        "/api/v1/products?offset=0&limit=50",
        "/api/v1/categories/1/products",
        "/api/v1/openapi.json",
        "/api/v3/openapi.json",
        "/docs/swagger-ui.css",
        "/metrics",
    };
    for (const auto& target : targets) {
        BOOST_TEST_INFO_SCOPE(target);
        const auto plain = fetch(port, target);
        BOOST_TEST_REQUIRE(plain.status == 200u);
        BOOST_TEST_REQUIRE(plain.body.size() > 1024u);
        BOOST_TEST(plain.header("content-encoding").empty());
        BOOST_TEST(plain.header("vary") == "Accept-Encoding");
        for (const std::string coding : {"gzip", "br"}) {
            BOOST_TEST_CONTEXT(target << " " << coding) {
                const auto packed = fetch(port, target, {{"Accept-Encoding", coding}});
                BOOST_TEST_REQUIRE(packed.status == 200u);
                BOOST_TEST(packed.header("content-encoding") == coding);
                BOOST_TEST(packed.header("vary") == "Accept-Encoding");
                BOOST_TEST(packed.header("content-length") == std::to_string(packed.body.size()));
                BOOST_TEST(packed.body.size() < plain.body.size());
                const std::string unpacked =
                    coding == "gzip" ? gunzip(packed.body) : unbrotli(packed.body, plain.body.size() + 4096);
                if (target != "/metrics") {  // live counters move between the two requests
                    BOOST_TEST(unpacked == plain.body);
                } else {
                    BOOST_TEST(unpacked.starts_with("# HELP"));
                }
                const std::string etag = packed.header("etag");
                if (target != "/metrics") {
                    // each coding's bytes have their own strong tag, and revalidate under it
                    BOOST_TEST(etag == plain.header("etag").substr(0, 17) + "-" + coding + "\"");
                    const auto again =
                        fetch(port, target, {{"Accept-Encoding", coding}, {"If-None-Match", etag}});
                    BOOST_TEST(again.status == 304u);
                    BOOST_TEST(again.header("etag") == etag);
                    BOOST_TEST(fetch(port, target, {{"If-None-Match", etag}}).status == 200u);
                } else {
                    BOOST_TEST(etag.empty());
                }
                const auto head = fetch(port, target, {{"Accept-Encoding", coding}}, "HEAD");
                BOOST_TEST(head.status == 200u);
                BOOST_TEST(head.body.empty());
                BOOST_TEST(head.header("content-encoding") == coding);
                BOOST_TEST(head.header("vary") == "Accept-Encoding");
                BOOST_TEST(head.header("etag") == etag);
                if (target != "/metrics") {
                    BOOST_TEST(head.header("content-length") == std::to_string(packed.body.size()));
                }
            }
        }
    }
}

BOOST_AUTO_TEST_CASE(accept_encoding_q_values_and_identity_refusal) {
    const auto port = shared_server().port();
    struct row {
        std::string accept_encoding;
        std::string large;  // Content-Encoding of a 10 KB page ("" for none)
        std::string small;  // of one category, under 1 KB
    };
    const std::vector<row> rows{
        {"", "", ""},
        {"identity", "", ""},
        {"gzip", "gzip", ""},
        {"br", "br", ""},
        {"gzip, deflate, br", "br", ""},
        {"gzip, deflate, br, zstd", "br", ""},
        {"deflate", "", ""},
        {"gzip;q=0.5, br;q=0.8", "br", ""},
        {"gzip;q=0.9, br;q=0.8", "gzip", ""},
        {"br;q=0, gzip", "gzip", ""},
        {"gzip;q=0, br;q=0", "", ""},
        {"*", "br", ""},
        {"*;q=0.5, br;q=0.1", "gzip", ""},
        {"X-GZIP", "gzip", ""},
        {"gzip;q=0.5, identity", "", ""},
        {"gzip;q=0.5, identity;q=0", "gzip", "gzip"},
        {"br, identity;q=0", "br", "br"},
        {"*;q=0, gzip", "gzip", "gzip"},
        {"identity;q=0", "", ""},  // nothing acceptable: the bytes as they are, never a 406
        {"gzip;q=2", "", ""},      // malformed: not trusted at all
        {"gzip;level=1", "", ""},
    };
    const auto plain_large = fetch(port, large_page).body;
    const auto plain_small = fetch(port, small_item).body;
    BOOST_TEST_REQUIRE(plain_large.size() > 1024u);
    BOOST_TEST_REQUIRE(plain_small.size() <= 1024u);
    for (const auto& r : rows) {
        BOOST_TEST_CONTEXT("Accept-Encoding: " << r.accept_encoding) {
            const header_list headers{{"Accept-Encoding", r.accept_encoding}};
            const auto large = fetch(port, large_page, headers);
            const auto small = fetch(port, small_item, headers);
            BOOST_TEST(large.header("content-encoding") == r.large);
            BOOST_TEST(small.header("content-encoding") == r.small);
            BOOST_TEST(large.header("vary") == "Accept-Encoding");
            BOOST_TEST(small.header("vary") == "Accept-Encoding");
            BOOST_TEST(large.header("content-length") == std::to_string(large.body.size()));
            const auto decode = [](const http_reply& reply, std::size_t size) {
                const std::string coding = reply.header("content-encoding");
                if (coding == "gzip") {
                    return gunzip(reply.body);
                }
                return coding == "br" ? unbrotli(reply.body, size) : reply.body;
            };
            BOOST_TEST(decode(large, plain_large.size()) == plain_large);
            BOOST_TEST(decode(small, plain_small.size()) == plain_small);
        }
    }
}

BOOST_AUTO_TEST_CASE(pictures_are_never_compressed_and_do_not_vary) {
    const auto port = shared_server().port();
    for (const std::string target : {"/api/v1/images/products/1-1.png", "/api/v1/images/avatars/2.png"}) {
        BOOST_TEST_CONTEXT(target) {
            const auto plain = fetch(port, target);
            const auto asked = fetch(port, target, {{"Accept-Encoding", "gzip, br, identity;q=0"}});
            BOOST_TEST(asked.status == 200u);
            BOOST_TEST(asked.header("content-encoding").empty());
            BOOST_TEST(asked.header("vary").empty());
            BOOST_TEST(asked.body == plain.body);
            BOOST_TEST(asked.header("etag") == plain.header("etag"));
        }
    }
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace http_caching_e2e_file
