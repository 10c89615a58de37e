// Tests for the shipping address rules: each bad field is named.
#include <boost/test/unit_test.hpp>

#include "core/shipping_address.hpp"

using namespace storefront::core;

namespace {

input_value text(std::string s) {
    return {input_value::kind::string, std::move(s), {}};
}

input_fields good() {
    return {
        {"name", text(" Ada Lovelace ")},
        {"line1", text("12 St James's Square")},
        {"city", text("London")},
        {"postalCode", text("SW1Y 4JH")},
        {"country", text("gb")}};
}

std::vector<std::string> fields_of(const input_fields& in) {
    std::vector<std::string> out;
    const auto r = read_shipping_address(in);
    if (!r) {
        for (const auto& p : r.error()) {
            out.push_back(p.field);
        }
    }
    return out;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(shipping_address_rules)

BOOST_AUTO_TEST_CASE(a_good_address) {
    const auto r = read_shipping_address(good());
    BOOST_TEST_REQUIRE(r.has_value());
    BOOST_TEST(r->name == "Ada Lovelace");
    BOOST_TEST(r->country == "GB");
    BOOST_TEST(!r->line2);
    auto with_line2 = good();
    with_line2["line2"] = text("Flat 3");
    BOOST_TEST((read_shipping_address(with_line2)->line2 == std::optional<std::string>("Flat 3")));
}

BOOST_AUTO_TEST_CASE(each_bad_field_is_named) {
    struct row {
        std::string field;
        input_value value;
        bool remove;
    };
    const row rows[] = {
        {"name", {}, true},
        {"name", text("   "), false},
        {"line1", {input_value::kind::number, "12", {}}, false},
        {"city", text(std::string(101, 'x')), false},
        {"postalCode", text("12#45"), false},
        {"postalCode", text("--"), false},
        {"country", text("GBR"), false},
        {"country", text("G1"), false},
        {"line2", {input_value::kind::boolean, "true", {}}, false},
        {"line2", text("a\nb"), false},
    };
    for (const auto& r : rows) {
        BOOST_TEST_CONTEXT(r.field << " " << r.value.text) {
            auto in = good();
            if (r.remove) {
                in.erase(r.field);
            } else {
                in[r.field] = r.value;
            }
            BOOST_TEST(fields_of(in) == std::vector<std::string>{"shippingAddress." + r.field});
        }
    }
    BOOST_TEST(fields_of({}).size() == 5u);
}

BOOST_AUTO_TEST_SUITE_END()
