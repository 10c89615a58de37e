// End to end over HTTP: /metrics counts requests by route pattern (never the raw path), method and status,
// with a latency histogram per route whose count matches, bytes in and out, open connections, cache hits
// and build info, in the Prometheus text format.

#include <cstdint>
#include <map>
#include <string>

#include <boost/test/unit_test.hpp>

#include "http_client.hpp"
#include "test_server.hpp"

using namespace storefront::test;

namespace {

// Every sample line "name{labels} value" of a scrape, by "name{labels}".
std::map<std::string, double> scrape() {
    const auto reply = get(shared_server().port(), "/metrics");
    BOOST_TEST_REQUIRE(reply.status == 200u);
    BOOST_TEST(reply.header("content-type") == "text/plain; version=0.0.4; charset=utf-8");
    std::map<std::string, double> out;
    std::size_t at = 0;
    while (at < reply.body.size()) {
        const std::size_t end = reply.body.find('\n', at);
        const std::string line = reply.body.substr(at, end - at);
        at = end == std::string::npos ? reply.body.size() : end + 1;
        if (line.empty() || line.front() == '#') {
            continue;
        }
        const std::size_t space = line.rfind(' ');
        out[line.substr(0, space)] = std::stod(line.substr(space + 1));
    }
    return out;
}

double value(const std::map<std::string, double>& samples, const std::string& key) {
    const auto found = samples.find(key);
    return found == samples.end() ? 0.0 : found->second;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(metrics_endpoint)

BOOST_AUTO_TEST_CASE(requests_are_counted_by_route_pattern_method_and_status) {
    const std::string ok_key =
        R"(storefront_http_requests_total{route="/api/v1/products/{id}",operation="getProduct",method="GET",status="200"})";
    const std::string missing_key =
        R"(storefront_http_requests_total{route="/api/v1/products/{id}",operation="getProduct",method="GET",status="404"})";
    const std::string count_key =
        R"(storefront_http_request_duration_seconds_count{route="/api/v1/products/{id}",operation="getProduct"})";
    const std::string inf_key =
        R"(storefront_http_request_duration_seconds_bucket{route="/api/v1/products/{id}",operation="getProduct",le="+Inf"})";
    const auto before = scrape();
    for (const char* target : {"/api/v1/products/3", "/api/v1/products/4", "/api/v1/products/5"}) {
        BOOST_TEST(get(shared_server().port(), target).status == 200u);
    }
    BOOST_TEST(get(shared_server().port(), "/api/v1/products/9999").status == 404u);
    BOOST_TEST(get(shared_server().port(), "/no/such/route").status == 404u);
    const auto after = scrape();
    BOOST_TEST(value(after, ok_key) - value(before, ok_key) == 3.0);
    BOOST_TEST(value(after, missing_key) - value(before, missing_key) == 1.0);
    BOOST_TEST(value(after, count_key) - value(before, count_key) == 4.0);
    BOOST_TEST(value(after, inf_key) == value(after, count_key));
    const std::string unmatched =
        R"(storefront_http_requests_total{route="unmatched",operation="",method="GET",status="404"})";
    BOOST_TEST(value(after, unmatched) - value(before, unmatched) == 1.0);
    // Labels are patterns, never raw paths (which would make one series per id).
    for (const auto& [key, v] : after) {
        BOOST_TEST_CONTEXT(key) {
            BOOST_TEST(key.find("/api/v1/products/3") == std::string::npos);
            BOOST_TEST(key.find("/no/such/route") == std::string::npos);
        }
    }
}

BOOST_AUTO_TEST_CASE(bytes_connections_cache_and_build_info) {
    const auto before = scrape();
    // Twice: the first may rebuild the pre-serialised list (the server just started), the second is a hit.
    BOOST_TEST(get(shared_server().port(), "/api/v1/products?limit=5").status == 200u);
    const auto page = get(shared_server().port(), "/api/v1/products?limit=5");
    BOOST_TEST_REQUIRE(page.status == 200u);
    const auto after = scrape();
    // At least the page's body went out, and its request line came in.
    BOOST_TEST(
        value(after, "storefront_http_sent_bytes_total") -
            value(before, "storefront_http_sent_bytes_total") >=
        static_cast<double>(page.body.size())
    );
    BOOST_TEST(
        value(after, "storefront_http_received_bytes_total") -
            value(before, "storefront_http_received_bytes_total") >
        30.0
    );
    // The second is a hit of the list cache, or answered again by its I/O thread's replay cache.
    const auto served_again = [](const auto& scraped) {
        return value(scraped, "storefront_response_cache_hits_total") +
               value(scraped, "storefront_replayed_requests_total");
    };
    BOOST_TEST(served_again(after) - served_again(before) >= 1.0);
    // The scrape's own connection is open while it is answered.
    BOOST_TEST(value(after, "storefront_open_connections") >= 1.0);
    BOOST_TEST(after.count("storefront_password_queue_depth") == 1u);
    BOOST_TEST(after.count("storefront_password_rejections_total") == 1u);
    BOOST_TEST(after.count("storefront_storage_queue_depth") == 1u);
    BOOST_TEST(after.count("storefront_storage_rejections_total") == 1u);
    bool build_info = false;
    for (const auto& [key, v] : after) {
        build_info = build_info || (key.starts_with("storefront_build_info{version=\"") && v == 1.0);
    }
    BOOST_TEST(build_info);
}

BOOST_AUTO_TEST_SUITE_END()
