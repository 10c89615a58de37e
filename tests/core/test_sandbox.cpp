// Sandbox ids, modes, random ids and per-sandbox token secrets (core/sandbox).

#include <set>
#include <string>
#include <vector>

#include <boost/test/unit_test.hpp>

#include "core/sandbox.hpp"

using namespace storefront::core;

BOOST_AUTO_TEST_SUITE(sandbox_rules)

BOOST_AUTO_TEST_CASE(ids_match_the_rule) {
    for (const std::string& ok :
         std::vector<std::string>{"abcd", "class-7", "QA_pipeline_12", std::string(64, 'z'), "0000"}) {
        BOOST_TEST(valid_sandbox_id(ok), ok);
    }
    for (const std::string& bad : std::vector<std::string>{
             "",
             "abc",
             std::string(65, 'z'),
             "with space",
             "dot.ted",
             "slash/ed",
             "perc%20",
             "\xc3\xa9t\xc3\xa9",
             "semi;x"}) {
        BOOST_TEST(!valid_sandbox_id(bad), bad);
    }
}

BOOST_AUTO_TEST_CASE(modes_parse_exactly) {
    BOOST_TEST((parse_sandbox_mode("off") == sandbox_mode::off));
    BOOST_TEST((parse_sandbox_mode("on") == sandbox_mode::on));
    BOOST_TEST((parse_sandbox_mode("required") == sandbox_mode::required));
    BOOST_TEST(!parse_sandbox_mode("ON"));
    BOOST_TEST(!parse_sandbox_mode(""));
}

BOOST_AUTO_TEST_CASE(random_ids_are_valid_long_and_distinct) {
    std::set<std::string> seen;
    for (int i = 0; i < 200; ++i) {
        const auto id = random_sandbox_id();
        BOOST_TEST(valid_sandbox_id(id));
        BOOST_TEST(id.size() == 22u);  // 16 bytes in base64url without padding
        seen.insert(id);
    }
    BOOST_TEST(seen.size() == 200u);
}

BOOST_AUTO_TEST_CASE(secrets_are_per_sandbox_and_the_same_on_every_instance) {
    const std::string shared = "shared-secret-0123456789";
    BOOST_TEST(sandbox_secret(shared, "class-7") == sandbox_secret(shared, "class-7"));
    BOOST_TEST(sandbox_secret(shared, "class-7") != sandbox_secret(shared, "class-8"));
    BOOST_TEST(sandbox_secret(shared, "class-7") != sandbox_secret("another-secret-0123456", "class-7"));
    BOOST_TEST(sandbox_secret(shared, "class-7").size() == 32u);
    BOOST_TEST(sandbox_secret(shared, "class-7") != shared);
}

BOOST_AUTO_TEST_SUITE_END()
