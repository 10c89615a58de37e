// Tests for the --compat values and the page rules each mode gives a list request (parse_list_page).
#include <limits>
#include <string>
#include <vector>

#include <boost/test/unit_test.hpp>

#include "core/compat.hpp"
#include "core/list_page.hpp"

using namespace storefront::core;

// A namespace of its own: a unity build compiles this file beside others whose helpers share names.
namespace compat_file {
namespace {

std::string describe(const query_params& params) {
    std::string out;
    for (const auto& p : params) {
        out += (out.empty() ? "?" : "&") + p.name + "=" + p.value;
    }
    return out.empty() ? "(none)" : out;
}

constexpr std::size_t all = std::numeric_limits<std::size_t>::max();

}  // namespace

BOOST_AUTO_TEST_SUITE(compat)

BOOST_AUTO_TEST_CASE(mode_names) {
    BOOST_TEST((parse_compat_mode("none") == compat_mode::none));
    BOOST_TEST((parse_compat_mode("public") == compat_mode::public_service));
    for (const std::string_view bad : {"", "Public", "PUBLIC", "public ", "strict", "nest"}) {
        BOOST_TEST_CONTEXT(bad) {
            BOOST_TEST(!parse_compat_mode(bad).has_value());
        }
    }
    BOOST_TEST(compat_mode_name(compat_mode::none) == "none");
    BOOST_TEST(compat_mode_name(compat_mode::public_service) == "public");
    BOOST_TEST(masked_password == "********");
}

// The same request under both modes: what page (offset, limit) or whole list each gives.
BOOST_AUTO_TEST_CASE(list_page_table) {
    struct row {
        query_params params;
        bool whole_by_default;
        compat_mode mode;
        bool whole;
        std::size_t offset;
        std::size_t limit;
    };
    using enum compat_mode;
    const std::vector<row> rows = {
        // storefront's own rules, unchanged
        {{}, false, none, false, 0, 10},
        {{}, true, none, true, 0, all},
        {{{"limit", "5"}}, true, none, false, 0, 5},
        {{{"offset", "5"}}, false, none, false, 5, 10},
        {{{"offset", "5"}}, true, none, false, 5, 10},
        {{{"offset", "2"}, {"limit", "3"}}, false, none, false, 2, 3},
        // public: limit=0 and offset without limit answer the whole list
        {{}, false, public_service, false, 0, 10},
        {{}, true, public_service, true, 0, all},
        {{{"limit", "0"}}, false, public_service, true, 0, all},
        {{{"limit", "00"}}, false, public_service, true, 0, all},
        {{{"limit", "0"}, {"offset", "20"}}, false, public_service, true, 0, all},
        {{{"offset", "5"}}, false, public_service, true, 0, all},
        {{{"offset", "0"}}, false, public_service, true, 0, all},
        {{{"offset", "5"}}, true, public_service, true, 0, all},
        {{{"offset", "5"}, {"title", "x"}}, false, public_service, true, 0, all},
        // public: anything else as usual
        {{{"limit", "5"}}, false, public_service, false, 0, 5},
        {{{"offset", "2"}, {"limit", "3"}}, false, public_service, false, 2, 3},
    };
    for (const auto& r : rows) {
        BOOST_TEST_CONTEXT(
            describe(r.params) << " mode " << compat_mode_name(r.mode) << " whole by default "
                               << r.whole_by_default
        ) {
            const auto page = parse_list_page(r.params, r.whole_by_default, r.mode);
            BOOST_TEST_REQUIRE(page.has_value());
            BOOST_TEST(page->whole == r.whole);
            BOOST_TEST(page->page.offset == r.offset);
            BOOST_TEST(page->page.limit == r.limit);
        }
    }
}

BOOST_AUTO_TEST_CASE(list_page_rejected_table) {
    struct row {
        query_params params;
        compat_mode mode;
        std::vector<std::string> messages;
    };
    using enum compat_mode;
    const std::vector<row> rows = {
        {{{"limit", "0"}}, none, {"limit must not be less than 1"}},
        {{{"offset", "-1"}}, none, {"offset must not be less than 0"}},
        // public: the whole list, but a bad offset is still a 400
        {{{"offset", "-1"}}, public_service, {"offset must not be less than 0"}},
        {{{"limit", "0"}, {"offset", "x"}},
         public_service,
         {"offset must be a number conforming to the specified constraints"}},
        {{{"offset", "1"}, {"offset", "2"}}, public_service, {"offset must be given at most once"}},
        // limits other than 0 keep their bounds; a repeated limit=0 is not a whole-list request
        {{{"limit", "-1"}}, public_service, {"limit must not be less than 1"}},
        {{{"limit", "101"}}, public_service, {"limit must not be greater than 100"}},
        {{{"limit", "0"}, {"limit", "0"}}, public_service, {"limit must be given at most once"}},
    };
    for (const auto& r : rows) {
        BOOST_TEST_CONTEXT(describe(r.params) << " mode " << compat_mode_name(r.mode)) {
            const auto page = parse_list_page(r.params, false, r.mode);
            BOOST_TEST_REQUIRE(!page.has_value());
            BOOST_TEST(page.error().messages == r.messages, boost::test_tools::per_element());
        }
    }
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace compat_file
