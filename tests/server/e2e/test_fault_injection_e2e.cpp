// Error states on demand over HTTP, on the real binary with one I/O thread: `_delay`, `_status` and
// `_fail_rate` on both /api surfaces with --fault-injection (and STOREFRONT_FAULT_INJECTION), their 400s,
// a delayed request that leaves the one thread free for others, an injected status on a write that writes
// nothing, and without the flag the parameters ignored like any unknown parameter.

#include <atomic>
#include <chrono>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>

#include "common/child_process.hpp"
#include "http_client.hpp"

namespace json = boost::json;
using namespace storefront::test;

// A namespace of its own: a unity build compiles this file beside others whose helpers share names.
namespace fault_injection_e2e_file {
namespace {

using clock_type = std::chrono::steady_clock;

// The binary on the memory backend with one I/O thread, then `extra` flags and `env`.
std::unique_ptr<child_process> start(
    const std::vector<std::string>& extra, const std::vector<std::string>& env = {}
) {
    std::vector<std::string> args{
        "--port",
        "0",
        "--threads",
        "1",
        "--storage",
        "memory",
        "--generated-locations",
        "100",
        "--access-log",
        "false"};
    args.insert(args.end(), extra.begin(), extra.end());
    return std::make_unique<child_process>(args, env);
}

struct instance {
    std::unique_ptr<child_process> process;
    std::uint16_t port = 0;
};

instance& enabled() {
    static instance on = [] {
        instance i{start({"--fault-injection"})};
        i.port = i.process->wait_listening(std::chrono::seconds(20));
        return i;
    }();
    return on;
}

instance& disabled() {
    static instance off = [] {
        instance i{start({})};
        i.port = i.process->wait_listening(std::chrono::seconds(20));
        return i;
    }();
    return off;
}

http_reply pet_get(std::uint16_t port, const std::string& target) {
    return send_request(port, {.method = "GET", .target = target, .headers = {{"api_key", "special-key"}}});
}

std::chrono::milliseconds since(clock_type::time_point start) {
    return std::chrono::duration_cast<std::chrono::milliseconds>(clock_type::now() - start);
}

// The v1 error body: exactly message, error (the reason phrase), statusCode.
void check_store_error(const http_reply& reply, unsigned status, const std::string& reason) {
    BOOST_TEST(reply.status == status);
    BOOST_TEST(reply.header("content-type") == "application/json; charset=utf-8");
    const auto body = reply.json().as_object();
    BOOST_TEST(body.size() == 3u, reply.body);
    BOOST_TEST(body.at("statusCode").as_int64() == status);
    BOOST_TEST(body.at("error").as_string() == reason);
    BOOST_TEST(body.at("message").is_string());
}

// The v3 error body: exactly code and message.
void check_pet_error(const http_reply& reply, unsigned status) {
    BOOST_TEST(reply.status == status);
    const auto body = reply.json().as_object();
    BOOST_TEST(body.size() == 2u, reply.body);
    BOOST_TEST(body.at("code").as_int64() == status);
    BOOST_TEST(body.at("message").is_string());
}

}  // namespace

BOOST_AUTO_TEST_SUITE(fault_injection_e2e)

BOOST_AUTO_TEST_CASE(status_answers_in_each_surfaces_error_shape) {
    const auto port = enabled().port;
    const std::vector<std::pair<unsigned, std::string>> table{
        {400, "Bad Request"},
        {401, "Unauthorized"},
        {404, "Not Found"},
        {418, "Client Error"},
        {429, "Too Many Requests"},
        {500, "Internal Server Error"},
        {503, "Service Unavailable"},
        {599, "Network Connect Timeout Error"},
    };
    for (const auto& [status, reason] : table) {
        BOOST_TEST_CONTEXT(status) {
            const auto v1 = get(port, "/api/v1/products?limit=2&_status=" + std::to_string(status));
            check_store_error(v1, status, reason);
            BOOST_TEST(v1.header("x-total-count").empty());  // the handler did not run
            const auto v3 = pet_get(port, "/api/v3/pet/1?_status=" + std::to_string(status));
            check_pet_error(v3, status);
            if (status == 429 || status == 503) {
                BOOST_TEST(v1.header("retry-after") == "1");
                BOOST_TEST(v3.header("retry-after") == "1");
            }
        }
    }
    const auto not_allowed = get(port, "/api/v1/categories?_status=405");
    check_store_error(not_allowed, 405, "Method Not Allowed");
    BOOST_TEST(not_allowed.header("allow") == "GET, HEAD, POST, OPTIONS");
}

BOOST_AUTO_TEST_CASE(delay_answers_normally_after_at_least_the_delay) {
    const auto port = enabled().port;
    const auto plain = get(port, "/api/v1/categories");
    BOOST_TEST_REQUIRE(plain.status == 200u);
    auto started = clock_type::now();
    const auto delayed = get(port, "/api/v1/categories?_delay=400");
    BOOST_TEST((since(started) >= std::chrono::milliseconds(400)));
    BOOST_TEST(delayed.status == 200u);
    BOOST_TEST(delayed.body == plain.body);

    started = clock_type::now();
    const auto pet = pet_get(port, "/api/v3/pet/1?_delay=300");
    BOOST_TEST((since(started) >= std::chrono::milliseconds(300)));
    BOOST_TEST(pet.status == 200u);
    BOOST_TEST(pet.json().at("id").as_int64() == 1);

    // Delay first, then the injected status.
    started = clock_type::now();
    check_store_error(get(port, "/api/v1/users?_delay=300&_status=502"), 502, "Bad Gateway");
    BOOST_TEST((since(started) >= std::chrono::milliseconds(300)));
}

// One I/O thread: a request answered while a delayed one still waits proves the delay holds no thread.
BOOST_AUTO_TEST_CASE(a_delayed_request_does_not_block_the_only_io_thread) {
    const auto port = enabled().port;
    std::atomic<bool> delayed_done{false};
    http_reply delayed;
    const auto started = clock_type::now();
    std::thread slow([&] {
        delayed = get(port, "/api/v1/products?_delay=3000");
        delayed_done = true;
    });
    std::this_thread::sleep_for(std::chrono::milliseconds(200));  // the slow one is in flight
    const auto other = get(port, "/api/v1/categories");
    const bool answered_while_waiting = !delayed_done.load();
    const auto other_at = since(started);
    slow.join();
    BOOST_TEST(other.status == 200u);
    BOOST_TEST(
        answered_while_waiting, "the concurrent request came back after " << other_at.count() << " ms"
    );
    BOOST_TEST(delayed.status == 200u);
    BOOST_TEST((since(started) >= std::chrono::milliseconds(3000)));
}

BOOST_AUTO_TEST_CASE(fail_rate_one_always_fails_zero_never) {
    const auto port = enabled().port;
    for (int i = 0; i < 20; ++i) {
        BOOST_TEST_CONTEXT(i) {
            const auto v1 = get(port, "/api/v1/products?_fail_rate=1");
            check_store_error(v1, 503, "Service Unavailable");
            BOOST_TEST(v1.header("retry-after") == "1");
            const auto v3 = get(port, "/api/v3/pet/findByStatus?status=available&_fail_rate=1.0");
            check_pet_error(v3, 503);
            BOOST_TEST(v3.header("retry-after") == "1");
            BOOST_TEST(get(port, "/api/v1/products?_fail_rate=0").status == 200u);
            BOOST_TEST(get(port, "/api/v3/pet/findByStatus?status=available&_fail_rate=0").status == 200u);
        }
    }
}

BOOST_AUTO_TEST_CASE(fail_rate_one_half_fails_about_half) {
    const auto port = enabled().port;
    int failed = 0;
    constexpr int requests = 200;
    for (int i = 0; i < requests; ++i) {
        const auto reply = get(port, "/api/v1/categories?_fail_rate=0.5");
        BOOST_TEST_REQUIRE((reply.status == 200u || reply.status == 503u));
        failed += reply.status == 503u ? 1 : 0;
    }
    // Binomial(200, 0.5) falls outside [50, 150] with a probability below 1e-12.
    BOOST_TEST(failed >= 50);
    BOOST_TEST(failed <= 150);
}

BOOST_AUTO_TEST_CASE(bad_values_are_400_in_each_validation_shape) {
    const auto port = enabled().port;
    const std::vector<std::pair<std::string, std::string>> table{
        {"_delay=-1", "_delay must not be less than 0"},
        {"_delay=10001", "_delay must not be greater than 10000"},
        {"_delay=soon", "_delay must be a number conforming to the specified constraints"},
        {"_delay=1&_delay=2", "_delay must be given at most once"},
        {"_status=200", "_status must not be less than 400"},
        {"_status=399", "_status must not be less than 400"},
        {"_status=600", "_status must not be greater than 599"},
        {"_status=5xx", "_status must be a number conforming to the specified constraints"},
        {"_fail_rate=1.5", "_fail_rate must not be greater than 1"},
        {"_fail_rate=-0.1", "_fail_rate must not be less than 0"},
        {"_fail_rate=half", "_fail_rate must be a number conforming to the specified constraints"},
    };
    for (const auto& [query, message] : table) {
        BOOST_TEST_CONTEXT(query) {
            const auto v1 = get(port, "/api/v1/products?" + query);
            BOOST_TEST(v1.status == 400u);
            const auto body = v1.json();
            BOOST_TEST(body.at("error").as_string() == "Bad Request");
            BOOST_TEST(body.at("statusCode").as_int64() == 400);
            BOOST_TEST_REQUIRE(body.at("message").as_array().size() == 1u, v1.body);
            BOOST_TEST(body.at("message").as_array().at(0).as_string() == message);
            const auto v3 = pet_get(port, "/api/v3/pet/1?" + query);
            BOOST_TEST(v3.status == 400u);
            BOOST_TEST(v3.json().at("code").as_int64() == 400);
            BOOST_TEST(v3.json().at("message").as_string() == message);
        }
    }
    // Every problem at once, no delay served first.
    const auto started = clock_type::now();
    const auto all = get(port, "/api/v1/products?_delay=5000&_status=0&_fail_rate=2");
    BOOST_TEST((since(started) < std::chrono::milliseconds(5000)));
    BOOST_TEST(all.status == 400u);
    BOOST_TEST(all.json().at("message").as_array().size() == 2u, all.body);
}

BOOST_AUTO_TEST_CASE(status_on_a_write_writes_nothing) {
    const auto port = enabled().port;
    const std::string category = R"({"name":"Injected Faults","image":"https://x.com/f.png"})";
    const auto count = [port] { return get(port, "/api/v1/categories").json().as_array().size(); };
    const auto before = count();
    const auto refused = send_request(
        port,
        {.method = "POST",
         .target = "/api/v1/categories?_status=500",
         .body = category,
         .content_type = "application/json"}
    );
    check_store_error(refused, 500, "Internal Server Error");
    BOOST_TEST(count() == before);
    const auto failed = send_request(
        port,
        {.method = "POST",
         .target = "/api/v1/categories?_fail_rate=1",
         .body = category,
         .content_type = "application/json"}
    );
    BOOST_TEST(failed.status == 503u);
    BOOST_TEST(count() == before);
    // The same request without the parameter does write: the check above could have failed.
    const auto created = post_json(port, "/api/v1/categories", category);
    BOOST_TEST(created.status == 201u, created.body);
    BOOST_TEST(count() == before + 1);

    const std::string order = R"({"id":7301,"petId":2,"quantity":1,"status":"placed","complete":false})";
    const auto order_refused = send_request(
        port,
        {.method = "POST",
         .target = "/api/v3/store/order?_status=503",
         .body = order,
         .content_type = "application/json"}
    );
    check_pet_error(order_refused, 503);
    BOOST_TEST(get(port, "/api/v3/store/order/7301").status == 404u);
    BOOST_TEST(post_json(port, "/api/v3/store/order", order).status == 200u);
    BOOST_TEST(get(port, "/api/v3/store/order/7301").status == 200u);
}

BOOST_AUTO_TEST_CASE(unknown_paths_methods_and_other_surfaces_are_untouched) {
    const auto port = enabled().port;
    const auto unknown = get(port, "/api/v1/nothing-here?_status=500");
    BOOST_TEST(unknown.status == 404u);
    BOOST_TEST(unknown.json().at("message").as_string() == "Cannot GET /api/v1/nothing-here");
    const auto wrong_verb =
        send_request(port, {.method = "PATCH", .target = "/api/v1/categories?_status=500&_delay=abc"});
    BOOST_TEST(wrong_verb.status == 405u);
    BOOST_TEST(get(port, "/healthz?_status=500&_fail_rate=1").status == 200u);
    BOOST_TEST(get(port, "/docs/?_status=500").status == 200u);
    // The documents served under /api are /api requests too, answered in their surface's shape.
    check_pet_error(get(port, "/api/v3/openapi.json?_status=503"), 503);
    check_store_error(get(port, "/api/v1/openapi.json?_status=503"), 503, "Service Unavailable");
    // Other underscore parameters are not ours: ignored, as by every list parser.
    const auto plain = get(port, "/api/v1/products?limit=3&sortBy=price&order=desc");
    const auto with_others = get(port, "/api/v1/products?limit=3&_x=1&sortBy=price&_sort=no&order=desc");
    BOOST_TEST(with_others.status == 200u);
    BOOST_TEST(with_others.body == plain.body);
}

BOOST_AUTO_TEST_CASE(without_the_flag_the_parameters_are_ignored) {
    const auto port = disabled().port;
    const std::vector<std::string> targets{
        "/api/v1/products?limit=5&sortBy=title&q=shirt",
        "/api/v1/categories",
        "/api/v1/users?limit=2&offset=1",
    };
    for (const auto& target : targets) {
        BOOST_TEST_CONTEXT(target) {
            const auto plain = get(port, target);
            BOOST_TEST_REQUIRE(plain.status == 200u);
            for (const std::string extra :
                 {"_status=500", "_fail_rate=1", "_delay=soon", "_status=9&_delay=-1"}) {
                BOOST_TEST_CONTEXT(extra) {
                    const auto reply =
                        get(port, target + (target.find('?') == std::string::npos ? "?" : "&") + extra);
                    BOOST_TEST(reply.status == 200u);
                    BOOST_TEST(reply.body == plain.body);
                    BOOST_TEST(reply.header("x-total-count") == plain.header("x-total-count"));
                }
            }
        }
    }
    const auto started = clock_type::now();
    BOOST_TEST(pet_get(port, "/api/v3/pet/1?_delay=2000&_status=500&_fail_rate=1").status == 200u);
    BOOST_TEST((since(started) < std::chrono::milliseconds(2000)));
    BOOST_TEST(disabled().process->output().find("fault_injection_enabled") == std::string::npos);
}

BOOST_AUTO_TEST_CASE(the_environment_variable_enables_it_and_the_start_is_logged) {
    auto process = start({}, {"STOREFRONT_FAULT_INJECTION=true"});
    const auto port = process->wait_listening(std::chrono::seconds(20));
    check_store_error(get(port, "/api/v1/categories?_status=418"), 418, "Client Error");
    BOOST_TEST(process->output().find("fault_injection_enabled") != std::string::npos);
    BOOST_TEST(enabled().process->output().find("fault_injection_enabled") != std::string::npos);

    auto off = start({"--fault-injection=false"}, {"STOREFRONT_FAULT_INJECTION=true"});  // the flag wins
    BOOST_TEST(
        get(off->wait_listening(std::chrono::seconds(20)), "/api/v1/categories?_status=418").status == 200u
    );
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace fault_injection_e2e_file
