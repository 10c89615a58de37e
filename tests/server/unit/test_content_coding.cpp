// Tests for response compression: Accept-Encoding negotiation (q-values, `*`, identity;q=0, case,
// malformed headers) and gzip/brotli bodies decoded back with zlib and libbrotlidec to the same bytes.
#include <cstdint>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include <boost/test/unit_test.hpp>

#include "common/decompress.hpp"
#include "server/codec/content_coding.hpp"

using namespace storefront::server;
using storefront::test::gunzip;
using storefront::test::unbrotli;

namespace {

// A products page as the API writes it: about 10 KB of JSON for 20 items.
std::string products_page() {
    std::string out = "[";
    for (int id = 1; id <= 20; ++id) {
        const std::string n = std::to_string(id);
        out += (id > 1 ? "," : "");
        out +=
            R"({"id":)" + n + R"(,"title":"Classic Product )" + n + R"(","slug":"classic-product-)" + n +
            R"(","price":)" + std::to_string(10 + id * 7 % 90) +
            R"(,"description":"A soft cotton item number )" + n +
            R"( with a relaxed fit, ribbed cuffs and a roomy front pocket for everyday wear.",)" +
            R"("category":{"id":1,"name":"Clothes","slug":"clothes","image":"https://i.imgur.com/QkIa5tT.jpeg",)" +
            R"("creationAt":"2026-01-01T00:00:00.000Z","updatedAt":"2026-01-01T00:00:00.000Z"},)" +
            R"("images":["https://i.imgur.com/product-)" + n + R"(-a.jpeg","https://i.imgur.com/product-)" +
            n +
            R"(-b.jpeg"],"creationAt":"2026-01-01T00:00:00.000Z","updatedAt":"2026-01-02T03:04:05.000Z"})";
    }
    return out + "]";
}

std::string random_bytes(std::size_t size) {
    std::mt19937 rng(42);
    std::string out(size, '\0');
    for (char& c : out) {
        c = static_cast<char>(rng() & 0xFF);
    }
    return out;
}

const char* name_of(content_coding coding) {
    return coding == content_coding::br ? "br" : coding == content_coding::gzip ? "gzip" : "identity";
}

}  // namespace

BOOST_AUTO_TEST_SUITE(content_coding_codec)

BOOST_AUTO_TEST_CASE(coding_names) {
    BOOST_TEST(coding_name(content_coding::identity) == "identity");
    BOOST_TEST(coding_name(content_coding::gzip) == "gzip");
    BOOST_TEST(coding_name(content_coding::br) == "br");
    BOOST_TEST(min_compressed_body_size == 1024u);
}

BOOST_AUTO_TEST_CASE(choice_table) {
    constexpr auto id = content_coding::identity;
    constexpr auto gz = content_coding::gzip;
    constexpr auto br = content_coding::br;
    struct row {
        std::string header;
        content_coding expected;
    };
    const std::vector<row> rows = {
        // Absent or empty: identity.
        {"", id},
        {"   ", id},
        {",", id},
        // Plain lists: br preferred on ties.
        {"gzip", gz},
        {"br", br},
        {"gzip, deflate, br", br},
        {"gzip, deflate, br, zstd", br},
        {"deflate", id},
        {"zstd, compress", id},
        {"br;q=1.0, gzip;q=1.0", br},
        // Case-insensitive tokens and q, x-gzip, spaces and empty elements.
        {"GZIP", gz},
        {"Br", br},
        {"x-gzip", gz},
        {"X-GZip;Q=0.5", gz},
        {" gzip ; q=0.5 , br ; q=0.4 ", gz},
        {"gzip,,br", br},
        {", gzip ,", gz},
        {"\tgzip\t", gz},
        // q-values decide.
        {"gzip;q=1, br;q=0.9", gz},
        {"gzip;q=0.8, br;q=0.9", br},
        {"gzip;q=0.001, br;q=0", gz},
        {"gzip;q=0.5", gz},            // an unnamed identity is only the fallback
        {"gzip;q=0.5, identity", id},  // identity named at q=1 outranks gzip at 0.5
        {"gzip;q=0.5, identity;q=0.5", gz},
        {"br;q=0.5, identity;q=0.5", br},
        {"gzip;q=0, br;q=0", id},
        {"gzip;q=0", id},
        {"br;q=0.000", id},
        {"gzip;q=1.000", gz},
        {"gzip;q=0.", id},  // "0." is a valid qvalue (no digits after the point): q=0
        // `*`: every coding not named.
        {"*", br},
        {"*;q=0.5", br},
        {"*;q=0", id},  // nothing acceptable: identity regardless
        {"gzip;q=0, *", br},
        {"br;q=0, *", gz},
        {"br;q=0, gzip;q=0, *", id},
        {"*;q=0.1, gzip", gz},
        {"*, identity;q=0", br},
        // identity;q=0: still picks a coding when one is acceptable.
        {"identity;q=0", id},
        {"gzip, identity;q=0", gz},
        {"identity;q=0, br;q=0.1", br},
        {"identity;q=0, *;q=0", id},
        // The first mention of a coding counts.
        {"gzip;q=0, gzip;q=1", id},
        {"br, br;q=0", br},
        // Malformed: identity, whatever else the header says.
        {"gzip;q=2", id},
        {"gzip;q=1.1", id},
        {"gzip;q=1.0001", id},
        {"gzip;q=0.1234", id},
        {"gzip;q=-1", id},
        {"gzip;q=abc", id},
        {"gzip;q=", id},
        {"gzip;q", id},
        {"gzip;", id},
        {"gzip;;q=1", id},
        {"gzip;q=0.5;q=0.6", id},
        {"gzip;level=9", id},
        {"gzip;q =0.5", id},
        {"gzip;q= 0.5", id},
        {"gzip;q=.5", id},
        {";q=1", id},
        {"gz ip", id},
        {"gzip br", id},
        {"br, gzip;q=2", id},
        {"br, \"gzip\"", id},
        {"br, gzip/1", id},
        {"br, g\xc3\xa9", id},
    };
    for (const auto& r : rows) {
        BOOST_TEST_CONTEXT("Accept-Encoding: " << r.header) {
            const content_coding got = choose_coding(r.header);
            BOOST_TEST(name_of(got) == name_of(r.expected));
        }
    }
}

BOOST_AUTO_TEST_CASE(bodies_decode_back_to_the_same_bytes) {
    struct row {
        const char* name;
        std::string body;
    };
    const std::vector<row> rows = {
        {"products page", products_page()},
        {"1 KB + 1 of JSON", products_page().substr(0, min_compressed_body_size + 1)},
        {"incompressible 64 KB", random_bytes(64 * 1024)},
        {"1 MB of one byte", std::string(1 << 20, 'a')},
        {"empty", std::string()},
        {"NUL bytes", std::string(3000, '\0')},
    };
    for (const auto& r : rows) {
        BOOST_TEST_CONTEXT(r.name << " (" << r.body.size() << " bytes)") {
            const std::string gz = compress(r.body, content_coding::gzip);
            BOOST_TEST_REQUIRE(gz.size() >= 18u);  // 10-byte header, 8-byte trailer
            BOOST_TEST(static_cast<unsigned char>(gz[0]) == 0x1f);
            BOOST_TEST(static_cast<unsigned char>(gz[1]) == 0x8b);
            BOOST_TEST(gunzip(gz) == r.body);

            const std::string b = compress(r.body, content_coding::br);
            BOOST_TEST(unbrotli(b, r.body.size()) == r.body);

            BOOST_TEST(compress(r.body, content_coding::identity) == r.body);
        }
    }
}

BOOST_AUTO_TEST_CASE(json_pages_shrink) {
    const std::string page = products_page();
    BOOST_TEST_REQUIRE(page.size() > 8000u);
    BOOST_TEST(compress(page, content_coding::gzip).size() < page.size() / 3);
    BOOST_TEST(compress(page, content_coding::br).size() < page.size() / 3);
}

BOOST_AUTO_TEST_SUITE_END()
