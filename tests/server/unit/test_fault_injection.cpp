// Fault injection in routing without sockets: which paths take the parameters, the injected answer of
// each plan in both surfaces' error shapes, the 400s, the reason phrase of statuses Beast does not name,
// and a `_delay` that waits on a timer while the same single thread keeps running other work.

#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <boost/json/parse.hpp>
#include <boost/test/unit_test.hpp>

#include "server/routing/fault_injection.hpp"
#include "server/transport/wire.hpp"

using namespace storefront;
using namespace storefront::server;

namespace {

constexpr route_table store_table{"/api/v1", error_style::store, {}, request_logging::logged};
constexpr route_table pet_table{"/api/v3", error_style::petstore, {}, request_logging::logged};

route_match matched(const route_table& table) {
    route_match m;
    m.outcome = route_match::kind::found;
    m.table = &table;
    m.allow = "GET, HEAD, POST, OPTIONS";
    return m;
}

core::fault_plan with_status(int status) {
    core::fault_plan plan;
    plan.status = status;
    return plan;
}

core::fault_plan with_rate(double rate) {
    core::fault_plan plan;
    plan.fail_rate = rate;
    return plan;
}

std::string header_line(const response& r, std::string_view name) {
    const std::string prefix = std::string(name) + ": ";
    const auto at = r.extra_headers.find(prefix);
    if (at == std::string::npos) {
        return {};
    }
    const auto end = r.extra_headers.find("\r\n", at);
    return r.extra_headers.substr(at + prefix.size(), end - at - prefix.size());
}

}  // namespace

BOOST_AUTO_TEST_SUITE(fault_injection_routing)

BOOST_AUTO_TEST_CASE(only_api_paths_take_the_parameters) {
    for (const std::string_view path :
         {"/api/v1/products", "/api/v3/pet/1", "/api/v1/openapi.json", "/api"}) {
        BOOST_TEST_CONTEXT(path) {
            BOOST_TEST(takes_fault_parameters(path));
        }
    }
    for (const std::string_view path : {"/", "/docs", "/healthz", "/metrics", "/apix", "/v1/api/x"}) {
        BOOST_TEST_CONTEXT(path) {
            BOOST_TEST(!takes_fault_parameters(path));
        }
    }
}

BOOST_AUTO_TEST_CASE(status_in_the_store_shape) {
    const std::vector<std::pair<int, std::string>> table{
        {400, "Bad Request"},
        {404, "Not Found"},
        {418, "Client Error"},  // not named by Beast
        {451, "Unavailable For Legal Reasons"},
        {499, "Client Closed Request"},
        {500, "Internal Server Error"},
        {520, "Server Error"},  // not named by Beast
        {599, "Network Connect Timeout Error"},
    };
    for (const auto& [status, reason] : table) {
        BOOST_TEST_CONTEXT(status) {
            const auto answer = injected_answer(matched(store_table), with_status(status), 0.5);
            BOOST_TEST_REQUIRE(answer.has_value());
            BOOST_TEST(static_cast<int>(answer->status) == status);
            // Rendered as the edge renders it for the surface (api_error.hpp).
            const auto body = boost::json::parse(rendered(*answer, error_style::store).body).as_object();
            BOOST_TEST(body.size() == 3u);
            BOOST_TEST(body.at("statusCode").as_int64() == status);
            BOOST_TEST(body.at("error").as_string() == reason);
            BOOST_TEST(body.at("message").as_string() == "Injected by _status=" + std::to_string(status));
        }
    }
}

BOOST_AUTO_TEST_CASE(status_in_the_petstore_shape) {
    for (const int status : {400, 404, 418, 500, 503, 599}) {
        BOOST_TEST_CONTEXT(status) {
            const auto answer = injected_answer(matched(pet_table), with_status(status), 0.5);
            BOOST_TEST_REQUIRE(answer.has_value());
            BOOST_TEST(static_cast<int>(answer->status) == status);
            const auto body = boost::json::parse(rendered(*answer, error_style::petstore).body).as_object();
            BOOST_TEST(body.size() == 2u);
            BOOST_TEST(body.at("code").as_int64() == status);
            BOOST_TEST(body.at("message").as_string() == "Injected by _status=" + std::to_string(status));
        }
    }
}

BOOST_AUTO_TEST_CASE(statuses_get_the_headers_http_asks_of_them) {
    const auto not_allowed = injected_answer(matched(store_table), with_status(405), 0.5);
    BOOST_TEST(header_line(*not_allowed, "Allow") == "GET, HEAD, POST, OPTIONS");
    BOOST_TEST(
        header_line(*injected_answer(matched(store_table), with_status(401), 0.5), "WWW-Authenticate") ==
        "Bearer"
    );
    BOOST_TEST(
        header_line(*injected_answer(matched(pet_table), with_status(401), 0.5), "WWW-Authenticate") ==
        R"(ApiKey realm="storefront-pet", header="api_key")"
    );
    for (const int status : {429, 503}) {
        BOOST_TEST_CONTEXT(status) {
            BOOST_TEST(
                header_line(*injected_answer(matched(pet_table), with_status(status), 0.5), "Retry-After") ==
                "1"
            );
        }
    }
    BOOST_TEST(injected_answer(matched(store_table), with_status(500), 0.5)->extra_headers.empty());
}

BOOST_AUTO_TEST_CASE(fail_rate_decides_on_the_random_number) {
    struct row {
        double rate;
        double random;
        bool fails;
    };
    const std::vector<row> table{
        {0.0, 0.0, false},
        {0.0, 0.999, false},
        {1.0, 0.0, true},
        {1.0, 0.9999999999, true},
        {0.25, 0.2499, true},
        {0.25, 0.25, false},
        {0.25, 0.9, false},
    };
    for (const auto& r : table) {
        BOOST_TEST_CONTEXT("rate " << r.rate << " random " << r.random) {
            for (const auto* t : {&store_table, &pet_table}) {
                const auto answer = injected_answer(matched(*t), with_rate(r.rate), r.random);
                BOOST_TEST(answer.has_value() == r.fails);
                if (answer) {
                    BOOST_TEST(static_cast<int>(answer->status) == 503);
                    BOOST_TEST(header_line(*answer, "Retry-After") == "1");
                    const auto body = boost::json::parse(rendered(*answer, t->errors).body);
                    BOOST_TEST(body.as_object().contains(t == &pet_table ? "code" : "statusCode"));
                }
            }
        }
    }
}

BOOST_AUTO_TEST_CASE(status_wins_and_an_empty_plan_runs_the_handler) {
    core::fault_plan both = with_rate(1.0);
    both.status = 404;
    BOOST_TEST(static_cast<int>(injected_answer(matched(store_table), both, 0.0)->status) == 404);
    BOOST_TEST(!injected_answer(matched(store_table), core::fault_plan{}, 0.0).has_value());
    core::fault_plan delay_only;
    delay_only.delay = std::chrono::milliseconds(5);
    BOOST_TEST(!injected_answer(matched(pet_table), delay_only, 0.0).has_value());
}

BOOST_AUTO_TEST_CASE(bad_values_are_400_in_each_validation_shape) {
    const core::validation_errors errors{
        {"_delay must not be greater than 10000", "_status must not be less than 400"}};
    // Rendered as the edge renders them for each surface.
    const auto store = rendered(fault_parameters_refused(matched(store_table), errors), error_style::store);
    BOOST_TEST(static_cast<int>(store.status) == 400);
    const auto store_body = boost::json::parse(store.body);
    BOOST_TEST(store_body.at("message").as_array().size() == 2u);
    BOOST_TEST(store_body.at("error").as_string() == "Bad Request");
    const auto pet = rendered(fault_parameters_refused(matched(pet_table), errors), error_style::petstore);
    BOOST_TEST(static_cast<int>(pet.status) == 400);
    BOOST_TEST(
        boost::json::parse(pet.body).at("message").as_string() ==
        "_delay must not be greater than 10000; _status must not be less than 400"
    );
}

BOOST_AUTO_TEST_CASE(unnamed_statuses_get_a_class_reason_on_the_wire) {
    BOOST_TEST(reason_phrase(static_cast<http::status>(404)) == "Not Found");
    BOOST_TEST(reason_phrase(static_cast<http::status>(418)) == "Client Error");
    BOOST_TEST(reason_phrase(static_cast<http::status>(530)) == "Server Error");
    response r = http_error(static_cast<http::status>(450), "x");
    std::string head;
    write_head(head, r, {});
    BOOST_TEST(head.rfind("HTTP/1.1 450 Client Error\r\n", 0) == 0u, head);
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(fault_injection_delay)

// One thread: while the delayed request waits, work posted after it runs first.
BOOST_AUTO_TEST_CASE(delay_waits_on_a_timer_not_the_thread) {
    boost::asio::io_context io;
    const auto match = matched(store_table);
    const core::query_params query{{"_delay", "300"}};
    std::optional<std::optional<response>> result;
    std::chrono::steady_clock::time_point other_ran{};
    std::chrono::steady_clock::time_point delayed_done{};
    const auto started = std::chrono::steady_clock::now();
    boost::asio::co_spawn(
        io,
        [&]() -> boost::asio::awaitable<void> {
            result = co_await apply_fault_parameters(match, query);
            delayed_done = std::chrono::steady_clock::now();
        },
        boost::asio::detached
    );
    boost::asio::post(io, [&] { other_ran = std::chrono::steady_clock::now(); });
    io.run();
    BOOST_TEST_REQUIRE(result.has_value());
    BOOST_TEST(!result->has_value());  // the handler answers after the delay
    BOOST_TEST((delayed_done - started >= std::chrono::milliseconds(300)));
    BOOST_TEST((other_ran < delayed_done));
    BOOST_TEST((other_ran - started < std::chrono::milliseconds(300)));
}

BOOST_AUTO_TEST_CASE(bad_values_answer_at_once_and_a_delayed_status_comes_after_the_delay) {
    boost::asio::io_context io;
    const auto match = matched(pet_table);
    std::optional<response> refused;
    std::optional<response> delayed_status;
    std::chrono::steady_clock::duration took{};
    const core::query_params too_long{{"_delay", "10001"}, {"_status", "503"}};
    const core::query_params delayed_502{{"_delay", "100"}, {"_status", "502"}};
    boost::asio::co_spawn(
        io,
        [&]() -> boost::asio::awaitable<void> {
            refused = co_await apply_fault_parameters(match, too_long);
            const auto before = std::chrono::steady_clock::now();
            delayed_status = co_await apply_fault_parameters(match, delayed_502);
            took = std::chrono::steady_clock::now() - before;
        },
        boost::asio::detached
    );
    io.run();
    BOOST_TEST_REQUIRE(refused.has_value());
    BOOST_TEST(static_cast<int>(refused->status) == 400);
    BOOST_TEST(
        boost::json::parse(rendered(*refused, error_style::petstore).body).at("message").as_string() ==
        "_delay must not be greater than 10000"
    );
    BOOST_TEST_REQUIRE(delayed_status.has_value());
    BOOST_TEST(static_cast<int>(delayed_status->status) == 502);
    BOOST_TEST((took >= std::chrono::milliseconds(100)));
}

BOOST_AUTO_TEST_SUITE_END()
