// Tests for routing's finish_response: which answers get an ETag, Vary and a content coding, and when
// If-None-Match turns one into a bodiless 304; prepared bodies keep their tags and compressed forms.
#include <memory>
#include <string>
#include <vector>

#include <boost/test/unit_test.hpp>

#include "server/codec/etag.hpp"
#include "server/routing/finish_response.hpp"

using namespace storefront::server;

namespace {

http::request_header<> head_of(
    http::verb verb, std::vector<std::pair<http::field, std::string>> fields = {}
) {
    http::request_header<> head;
    head.method(verb);
    head.target("/x");
    for (const auto& [name, value] : fields) {
        head.set(name, value);
    }
    return head;
}

const std::string large_json = "[" + std::string(3000, ' ') + "]";
const std::string small_json = R"({"id":1})";

}  // namespace

BOOST_AUTO_TEST_SUITE(finish_response_unit)

BOOST_AUTO_TEST_CASE(only_200_answers_to_get_and_head_are_touched) {
    struct row {
        http::verb verb;
        http::status status;
        bool touched;
    };
    const std::vector<row> rows{
        {http::verb::get, http::status::ok, true},
        {http::verb::head, http::status::ok, true},
        {http::verb::post, http::status::ok, false},
        {http::verb::put, http::status::ok, false},
        {http::verb::post, http::status::created, false},
        {http::verb::get, http::status::not_found, false},
        {http::verb::get, http::status::bad_request, false},
        {http::verb::get, http::status::no_content, false},
    };
    for (const auto& r : rows) {
        BOOST_TEST_CONTEXT(r.verb << " " << static_cast<unsigned>(r.status)) {
            response reply = json_response(r.status, large_json);
            finish_response(head_of(r.verb, {{http::field::accept_encoding, "gzip"}}), reply);
            BOOST_TEST(reply.etag().empty() != r.touched);
            BOOST_TEST(reply.vary_encoding == r.touched);
            BOOST_TEST((reply.coding == content_coding::gzip) == r.touched);
        }
    }
}

BOOST_AUTO_TEST_CASE(etag_is_the_body_hash_and_vary_follows_the_media_type) {
    struct row {
        std::string content_type;
        bool deterministic;
        bool tagged;
        bool varies;
    };
    const std::vector<row> rows{
        {"", true, true, true},
        {"application/json; charset=utf-8", true, true, true},
        {"text/html; charset=utf-8", true, true, true},
        {"text/plain; version=0.0.4; charset=utf-8", false, false, true},
        {"", false, false, true},
        {"image/png", true, true, false},
        {"image/png", false, false, false},
    };
    for (const auto& r : rows) {
        BOOST_TEST_CONTEXT(r.content_type << " deterministic " << r.deterministic) {
            response reply = json_response(http::status::ok, small_json);
            reply.content_type = r.content_type;
            reply.deterministic = r.deterministic;
            finish_response(head_of(http::verb::get), reply);
            BOOST_TEST(reply.etag() == (r.tagged ? strong_etag(small_json) : std::string()));
            BOOST_TEST(reply.vary_encoding == r.varies);
            BOOST_TEST(reply.payload() == small_json);
            BOOST_TEST(reply.status == http::status::ok);
        }
    }
}

BOOST_AUTO_TEST_CASE(matching_if_none_match_gives_a_bodiless_304) {
    const std::string tag = strong_etag(large_json);
    for (const std::string& condition : {tag, "W/" + tag, "\"x\", " + tag, std::string("*")}) {
        BOOST_TEST_CONTEXT(condition) {
            response reply = json_response(http::status::ok, large_json);
            reply.with_header("Cache-Control", "no-cache");
            finish_response(head_of(http::verb::get, {{http::field::if_none_match, condition}}), reply);
            BOOST_TEST(reply.status == http::status::not_modified);
            BOOST_TEST(reply.payload().empty());
            BOOST_TEST(reply.etag() == tag);
            BOOST_TEST(reply.extra_headers == "Cache-Control: no-cache\r\n");
        }
    }
    response random = json_response(http::status::ok, large_json);
    random.deterministic = false;
    finish_response(head_of(http::verb::get, {{http::field::if_none_match, "*"}}), random);
    BOOST_TEST(random.status == http::status::ok);
    BOOST_TEST(random.payload() == large_json);
}

BOOST_AUTO_TEST_CASE(compressed_answers_have_their_own_tag) {
    const std::string tag = strong_etag(large_json);
    response reply = json_response(http::status::ok, large_json);
    finish_response(head_of(http::verb::get, {{http::field::accept_encoding, "br"}}), reply);
    BOOST_TEST((reply.coding == content_coding::br));
    BOOST_TEST(reply.etag() == tag.substr(0, 17) + "-br\"");
    BOOST_TEST(reply.payload() == compress(large_json, content_coding::br));

    // a 304 under the coded tag needs no compression at all
    response again = json_response(http::status::ok, large_json);
    finish_response(
        head_of(
            http::verb::get,
            {{http::field::accept_encoding, "br"}, {http::field::if_none_match, std::string(reply.etag())}}
        ),
        again
    );
    BOOST_TEST(again.status == http::status::not_modified);
    BOOST_TEST((again.coding == content_coding::identity));
}

BOOST_AUTO_TEST_CASE(prepared_bodies_are_hashed_and_compressed_once) {
    const auto page = std::make_shared<const prepared_body>(large_json);
    const auto answer = [&](std::string accept_encoding) {
        response r = shared_json_response(page);
        finish_response(head_of(http::verb::get, {{http::field::accept_encoding, accept_encoding}}), r);
        return r;
    };
    const response plain = answer("");
    BOOST_TEST(plain.etag() == strong_etag(large_json));
    BOOST_TEST(plain.payload().data() == page->bytes().data());  // shared, not copied
    const response first = answer("gzip");
    const response second = answer("gzip");
    BOOST_TEST((first.coding == content_coding::gzip));
    BOOST_TEST(first.payload().data() == second.payload().data());  // compressed once, kept with the page
    BOOST_TEST(first.payload() == compress(large_json, content_coding::gzip));
    BOOST_TEST(first.etag() == page->etag(content_coding::gzip));
    BOOST_TEST(answer("br").payload().data() == page->encoded(content_coding::br).data());
}

BOOST_AUTO_TEST_SUITE_END()
