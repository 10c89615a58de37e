// Location CSV files through make_location_store: RFC 4180 quoting and line endings, and a table of
// malformed files that must fail with "<file>:<line>: <problem>".

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

#include <boost/test/unit_test.hpp>

#include "common/temp_dir.hpp"
#include "core/geo.hpp"
#include "storage/factory.hpp"

namespace storage = storefront::storage;
namespace core = storefront::core;
namespace fs = std::filesystem;

namespace {

// CSV files in a fresh temporary directory, removed with everything in it.
struct csv_files {
    storefront::test::temp_dir dir;
    const fs::path& path = dir.path();

    fs::path write(const std::string& name, const std::string& content) const {
        const fs::path file = path / name;
        std::ofstream out(file, std::ios::binary);
        out << content;
        return file;
    }
};

storage::storage_config config_for(const fs::path& file) {
    storage::storage_config config;
    config.location_file = file;
    return config;
}

const std::string header = "id,name,description,latitude,longitude\n";

}  // namespace

BOOST_FIXTURE_TEST_SUITE(location_csv, csv_files)

BOOST_AUTO_TEST_CASE(loads_quoted_fields_and_crlf) {
    const fs::path file = write(
        "good.csv",
        "id,name,description,latitude,longitude\r\n"
        "3,\"Quoted, with comma\",\"Line one\r\nline two with \"\"quotes\"\"\",10.5,-20.25\r\n"
        "1,Plain,Simple,0,0\r\n"
        "\r\n"
        "2,Suva,\"\",-18.1416,178.4419"
    );
    const auto store = storage::make_location_store(config_for(file));
    BOOST_TEST_REQUIRE(store->location_count() == 3u);
    const auto all = store->random_locations(10, 1);  // more than held: all of them, in id order
    BOOST_TEST_REQUIRE(all.size() == 3u);
    BOOST_TEST(all[0].id == 1);
    BOOST_TEST(all[0].name == "Plain");
    BOOST_TEST(all[1].id == 2);
    BOOST_TEST(all[1].description == "");
    BOOST_TEST(all[1].longitude == 178.4419);
    BOOST_TEST(all[2].id == 3);
    BOOST_TEST(all[2].name == "Quoted, with comma");
    BOOST_TEST(all[2].description == "Line one\r\nline two with \"quotes\"");
    BOOST_TEST(all[2].latitude == 10.5);
    BOOST_TEST(all[2].longitude == -20.25);

    const auto nearest = store->nearest_locations({10.0, -20.0}, 1, std::nullopt);
    BOOST_TEST_REQUIRE(nearest.size() == 1u);
    BOOST_TEST(nearest.front().id == 3);
    // Across the antimeridian from Suva.
    const auto dateline = store->nearest_locations({-18.0, -179.9}, 1, 500.0);
    BOOST_TEST_REQUIRE(dateline.size() == 1u);
    BOOST_TEST(dateline.front().id == 2);
}

BOOST_AUTO_TEST_CASE(loads_lf_with_bom_utf8_and_bounds) {
    const fs::path file = write(
        "lf.csv",
        "\xEF\xBB\xBF" + header +
            "10,Bogotá,\"Café, centro\",4.7110,-74.0721\n"
            "-5,North Pole,top,90,180\n"
            "7,South Pole,bottom,-90,-180\n"
            "8,Tiny,exponent,1e-3,-2.5E1\n"
    );
    const auto store = storage::make_location_store(config_for(file));
    BOOST_TEST_REQUIRE(store->location_count() == 4u);
    const auto all = store->random_locations(4, 9);
    BOOST_TEST(all[0].id == -5);
    BOOST_TEST(all[1].id == 7);
    BOOST_TEST(all[2].latitude == 0.001);
    BOOST_TEST(all[2].longitude == -25.0);
    BOOST_TEST(all[3].name == "Bogotá");
    BOOST_TEST(all[3].description == "Café, centro");
}

BOOST_AUTO_TEST_CASE(malformed_files_name_the_line) {
    struct bad_file {
        const char* what;
        std::string content;
        std::size_t line;
    };
    const bad_file table[] = {
        {"empty file", "", 1},
        {"header only", header, 2},
        {"bad header", "id,name,desc,latitude,longitude\n1,A,d,1,2\n", 1},
        {"short header", "id,name,description,latitude\n1,A,d,1\n", 1},
        {"latitude out of range", header + "1,A,d,91,0\n", 2},
        {"latitude not a number", header + "1,A,d,abc,0\n", 2},
        {"latitude nan", header + "1,A,d,nan,0\n", 2},
        {"latitude inf", header + "1,A,d,inf,0\n", 2},
        {"latitude empty", header + "1,A,d,,0\n", 2},
        {"latitude with space", header + "1,A,d, 1,0\n", 2},
        {"longitude out of range", header + "1,A,d,0,0\n2,B,d,0,180.5\n", 3},
        {"duplicate id", header + "1,A,d,0,0\n1,B,d,1,1\n", 3},
        {"id not an integer", header + "1.5,A,d,0,0\n", 2},
        {"id missing", header + ",A,d,0,0\n", 2},
        {"id too large", header + "99999999999999999999,A,d,0,0\n", 2},
        {"empty name", header + "1,,d,0,0\n", 2},
        {"too few fields", header + "1,A,d,0\n", 2},
        {"too many fields", header + "1,A,d,0,0,extra\n", 2},
        {"unterminated quote", header + "1,A,d,0,0\n2,\"B,d,0,0\n3,C,d,0,0\n", 3},
        {"text after closing quote", header + "1,\"A\"x,d,0,0\n", 2},
        {"quote inside unquoted field", header + "1,A\"b,d,0,0\n", 2},
        {"bare carriage return", header + "1,A,d,0,0\r2,B,d,0,0\n", 2},
        {"line count across quoted line breaks", header + "1,\"A\nB\",d,0,0\n2,C,d,95,0\n", 4},
    };
    for (std::size_t i = 0; i < std::size(table); ++i) {
        const auto& c = table[i];
        BOOST_TEST_CONTEXT(c.what) {
            const fs::path file = write("bad-" + std::to_string(i) + ".csv", c.content);
            const std::string prefix = file.string() + ":" + std::to_string(c.line) + ": ";
            try {
                (void)storage::make_location_store(config_for(file));
                BOOST_ERROR("no exception");
            } catch (const std::runtime_error& e) {
                const std::string message = e.what();
                BOOST_TEST(message.starts_with(prefix), message);
                BOOST_TEST(message.size() > prefix.size(), message);
            }
        }
    }
}

BOOST_AUTO_TEST_CASE(missing_file_is_an_error) {
    BOOST_CHECK_THROW(
        (void)storage::make_location_store(config_for(path / "absent.csv")), std::runtime_error
    );
}

BOOST_AUTO_TEST_SUITE_END()
