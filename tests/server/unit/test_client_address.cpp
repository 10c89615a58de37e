// The access log's client address: trusted-proxy lists, hop parsing, and the right-most-untrusted walk over
// X-Forwarded-For and Forwarded, including hostile header values.

#include <stdexcept>
#include <string>
#include <vector>

#include <boost/asio/ip/address.hpp>
#include <boost/test/unit_test.hpp>

#include "server/ops/client_address.hpp"

using namespace storefront::server;
namespace ip = boost::asio::ip;

namespace {

ip::address addr(const char* text) {
    return ip::make_address(text);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(client_address_unit)

BOOST_AUTO_TEST_CASE(trusted_lists_take_addresses_and_networks) {
    const auto proxies = trusted_proxies::parse(" 10.0.0.7, 192.168.0.0/16,fd00::/8 , ::1,");
    BOOST_TEST(!proxies.empty());
    for (const char* inside :
         {"10.0.0.7", "192.168.3.4", "192.168.255.255", "fd12::5", "::1", "::ffff:10.0.0.7"}) {
        BOOST_TEST_CONTEXT(inside) {
            BOOST_TEST(proxies.contains(addr(inside)));
        }
    }
    for (const char* outside :
         {"10.0.0.8", "192.169.0.1", "fe80::1", "::2", "127.0.0.1", "::ffff:10.0.0.8"}) {
        BOOST_TEST_CONTEXT(outside) {
            BOOST_TEST(!proxies.contains(addr(outside)));
        }
    }
    BOOST_TEST(trusted_proxies::parse("").empty());
    BOOST_TEST(!trusted_proxies{}.contains(addr("127.0.0.1")));
}

BOOST_AUTO_TEST_CASE(a_bad_trusted_list_is_refused_naming_the_item) {
    for (const char* bad :
         {"10.0.0", "10.0.0.0/33", "example.com", "10.0.0.1/8x", "fd00::/129", "1.2.3.4:80"}) {
        BOOST_TEST_CONTEXT(bad) {
            try {
                (void)trusted_proxies::parse(std::string("127.0.0.1,") + bad);
                BOOST_ERROR("accepted");
            } catch (const std::invalid_argument& e) {
                BOOST_TEST(std::string(e.what()).find(bad) != std::string::npos);
            }
        }
    }
}

BOOST_AUTO_TEST_CASE(hops_in_the_forms_proxies_write) {
    struct row {
        const char* text;
        const char* expected;  // nullptr: refused
    };
    const std::vector<row> rows{
        {"192.0.2.7", "192.0.2.7"},
        {" 192.0.2.7 ", "192.0.2.7"},
        {"192.0.2.7:5678", "192.0.2.7"},
        {"2001:db8::1", "2001:db8::1"},
        {"[2001:db8::1]", "2001:db8::1"},
        {"[2001:db8::1]:443", "2001:db8::1"},
        {"\"[2001:db8::1]:4711\"", "2001:db8::1"},
        {"::ffff:192.0.2.7", "192.0.2.7"},
        {"unknown", nullptr},
        {"_hidden", nullptr},
        {"", nullptr},
        {"192.0.2.7:99999", nullptr},
        {"192.0.2.7:", nullptr},
        {"[2001:db8::1", nullptr},
        {"[2001:db8::1]x", nullptr},
        {"fe80::1%eth0", nullptr},
        {"192.0.2.7\r\nX-Evil: 1", nullptr},
        {"\"192.0.2.7", nullptr},
        {"300.1.1.1", nullptr},
        {"1.2.3.4.5", nullptr},
    };
    for (const auto& r : rows) {
        BOOST_TEST_CONTEXT(r.text) {
            ip::address out;
            const bool ok = parse_hop(r.text, out);
            BOOST_TEST(ok == (r.expected != nullptr));
            if (ok && r.expected) {
                BOOST_TEST(out.to_string() == r.expected);
            }
        }
    }
    std::string long_hop(200, '1');
    ip::address out;
    BOOST_TEST(!parse_hop(long_hop, out));
}

BOOST_AUTO_TEST_CASE(forwarded_for_values_per_element) {
    const auto values = forwarded_for_values(
        R"(for=192.0.2.60;proto=http;by=203.0.113.43, For="[2001:db8:cafe::17]:4711", proto=https)"
    );
    BOOST_TEST_REQUIRE(values.size() == 3u);
    BOOST_TEST(values[0] == "192.0.2.60");
    BOOST_TEST(values[1] == "\"[2001:db8:cafe::17]:4711\"");
    BOOST_TEST(values[2] == "");
}

BOOST_AUTO_TEST_CASE(the_client_is_the_right_most_untrusted_hop_behind_a_trusted_peer) {
    const auto proxies = trusted_proxies::parse("10.0.0.0/8, 127.0.0.1");
    struct row {
        const char* peer;
        const char* xff;
        const char* forwarded;
        const char* expected;
    };
    const std::vector<row> rows{
        // An untrusted peer: the headers are ignored, whatever they say.
        {"198.51.100.9", "192.0.2.1", "", "198.51.100.9"},
        {"198.51.100.9", "", "for=192.0.2.1", "198.51.100.9"},
        // A trusted peer: the right-most hop that is not a trusted proxy.
        {"127.0.0.1", "192.0.2.1", "", "192.0.2.1"},
        {"10.1.1.1", "203.0.113.5, 192.0.2.1, 10.2.2.2", "", "192.0.2.1"},  // spoofed left part ignored
        {"10.1.1.1", "10.3.3.3, 10.2.2.2", "", "10.3.3.3"},                 // all trusted: the left-most
        {"10.1.1.1", "", "", "10.1.1.1"},                                   // no header: the peer
        {"::ffff:10.1.1.1", "192.0.2.1", "", "192.0.2.1"},                  // dual-stack listener
        // X-Forwarded-For wins over Forwarded; Forwarded is used without it.
        {"10.1.1.1", "192.0.2.1", "for=192.0.2.99", "192.0.2.1"},
        {"10.1.1.1", "", "for=192.0.2.99;proto=https, for=10.2.2.2", "192.0.2.99"},
        {"10.1.1.1", "", R"(for="[2001:db8::5]:4711")", "2001:db8::5"},
        // Garbage stops the walk at the last trusted address: never logged raw.
        {"10.1.1.1", "not-an-ip", "", "10.1.1.1"},
        {"10.1.1.1", "192.0.2.1, <script>, 10.2.2.2", "", "10.2.2.2"},
        {"10.1.1.1", "\"192.0.2.1, 10.2.2.2", "", "10.2.2.2"},  // an opened quote hides nothing
        {"10.1.1.1", ",,,", "", "10.1.1.1"},
        {"10.1.1.1", "", "for=unknown", "10.1.1.1"},
        {"10.1.1.1", "", "for=\"_hidden\", for=10.2.2.2", "10.2.2.2"},
        {"10.1.1.1", "", "proto=https", "10.1.1.1"},
        {"10.1.1.1", "", "for=\"192.0.2.1;by=x", "10.1.1.1"},
    };
    for (const auto& r : rows) {
        BOOST_TEST_CONTEXT(r.peer << " | " << r.xff << " | " << r.forwarded) {
            BOOST_TEST(client_address(addr(r.peer), r.xff, r.forwarded, proxies) == r.expected);
        }
    }
    // Without trusted proxies nothing is believed.
    BOOST_TEST(client_address(addr("127.0.0.1"), "192.0.2.1", "", trusted_proxies{}) == "127.0.0.1");
}

BOOST_AUTO_TEST_SUITE_END()
