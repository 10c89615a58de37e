// Dispatch in-process, stage by stage, without a socket: constructed requests through dispatch() and
// handle_request() over the composition root's real route tables (memory storage), and a table of our own
// whose handlers fail as a storage backend does. Each case asserts what a client would see: the status,
// the head's fields as written on the wire, and the JSON error body.

#include <exception>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/json/parse.hpp>
#include <boost/test/unit_test.hpp>

#include "../e2e/test_server.hpp"
#include "server/composition_root.hpp"
#include "server/routing/dispatch.hpp"
#include "server/services/blocking_offload.hpp"
#include "server/transport/wire.hpp"
#include "storage/storage_error.hpp"

using namespace storefront;
using namespace storefront::server;

namespace {

// The composition root of the end-to-end tests' configuration, made once for every case (a few
// locations only: no case reads them).
const composition_root& app() {
    static const server_config config = [] {
        server_config c = test::test_config();
        c.storage.generated_locations = 100;
        return c;
    }();
    static const composition_root root(config);
    return root;
}

http_request request_of(http::verb verb, std::string_view target, std::string body = {}) {
    http_request r{verb, target, 11};
    r.set(http::field::host, "shop.test");
    if (!body.empty()) {
        r.set(http::field::content_type, "application/json");
        r.body() = std::move(body);
        r.prepare_payload();
    }
    return r;
}

// What a client reads: the answer's head as the session writes it, and its body.
struct seen {
    unsigned status = 0;
    std::string head;
    std::string body;

    // The value of header `name` in the head, or "-" when it has none.
    [[nodiscard]] std::string field(std::string_view name) const {
        const std::string key = "\r\n" + std::string(name) + ": ";
        const auto at = head.find(key);
        if (at == std::string::npos) {
            return "-";
        }
        const auto from = at + key.size();
        return head.substr(from, head.find("\r\n", from) - from);
    }
    [[nodiscard]] boost::json::object json() const { return boost::json::parse(body).as_object(); }
};

seen seen_of(const response& reply) {
    seen out;
    out.status = static_cast<unsigned>(reply.status);
    write_head(out.head, reply, head_options{.keep_alive = true, .http10 = false, .more_headers = {}});
    out.body = std::string(reply.payload());
    return out;
}

template <class T>
T run(boost::asio::awaitable<T> call) {
    boost::asio::io_context io;
    std::optional<T> out;
    boost::asio::co_spawn(io, std::move(call), [&](std::exception_ptr e, T value) {
        if (e) {
            std::rethrow_exception(e);
        }
        out = std::move(value);
    });
    io.run();
    return std::move(*out);
}

seen dispatched(const http_request& request, const routing_services& services = app().routing()) {
    return seen_of(run(dispatch(request, services)));
}

// A body source whose body never arrived: read_body counts its calls and fails as a peer that left.
class unread_body final : public body_source {
  public:
    bool body_complete() const override { return false; }
    boost::asio::awaitable<bool> read_body(std::size_t) override {
        ++reads;
        co_return false;
    }
    std::string_view client() const override { return "192.0.2.7"; }
    int reads = 0;
};

// A complete request's body source (nothing left to read).
class read_body_source final : public body_source {
  public:
    bool body_complete() const override { return true; }
    boost::asio::awaitable<bool> read_body(std::size_t) override { co_return true; }
    std::string_view client() const override { return "192.0.2.7"; }
};

// The sandboxes under --sandboxes required, as far as a request on the shared view meets them.
class required_sandboxes final : public sandbox_gateway {
  public:
    core::sandbox_mode mode() const override { return core::sandbox_mode::required; }
    boost::asio::awaitable<or_response<std::shared_ptr<const sandbox_view>>> open(
        std::string_view, bool, error_style
    ) override {
        co_return http_error(http::status::service_unavailable, "not opened in these tests");
    }
    boost::asio::awaitable<std::optional<response>> admit_write(const sandbox_view&, row_kind, error_style)
        override {
        co_return std::nullopt;
    }
    boost::asio::awaitable<response> reset(std::string_view) override { co_return response{}; }
    boost::asio::awaitable<response> create() override { co_return response{}; }
};

// Handlers that fail as the storage layer does: its backend down, the offload queue full, a bug.
handler_result storage_down(request_context&, void*) {
    throw storage::storage_unavailable("connection refused (test)");
    co_return response{};
}
handler_result pool_full(request_context&, void*) {
    throw offload_rejected();
    co_return response{};
}
handler_result broken(request_context&, void*) {
    throw std::logic_error("broken invariant (test)");
    co_return response{};
}

constexpr auto on_get = http::verb::get;
constexpr auto anyone = access_rule::open;
constexpr auto no_body = body_policy::none;
constexpr auto reads = data_change::reads;
constexpr route failing_rows[] = {
    {on_get, "/api/v1/down", storage_down, anyone, no_body, "down", reads},
    {on_get, "/api/v1/full", pool_full, anyone, no_body, "full", reads},
    {on_get, "/api/v1/broken", broken, anyone, no_body, "broken", reads},
};
constexpr route failing_pet_rows[] = {
    {on_get, "/api/v3/down", storage_down, anyone, no_body, "petDown", reads},
};
constexpr route_table failing_table{"/api/v1", error_style::store, failing_rows, request_logging::logged};
constexpr route_table failing_pet_table{
    "/api/v3", error_style::petstore, failing_pet_rows, request_logging::logged};

const router& failing_router() {
    static const router r({mounted_table(&failing_table), mounted_table(&failing_pet_table)});
    return r;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(dispatch_unit)

BOOST_AUTO_TEST_CASE(a_known_route_answers_with_its_handler) {
    const seen got = dispatched(request_of(http::verb::get, "/api/v1/products?limit=2"));
    BOOST_TEST(got.status == 200u);
    BOOST_TEST(got.field("Content-Type").starts_with("application/json"));
    BOOST_TEST(got.field("ETag").starts_with("\""));
    BOOST_TEST(!got.body.empty());
}

BOOST_AUTO_TEST_CASE(an_unknown_route_is_a_404_in_json) {
    const seen got = dispatched(request_of(http::verb::get, "/api/v1/nothing-here"));
    BOOST_TEST(got.status == 404u);
    BOOST_TEST(got.field("Content-Type").starts_with("application/json"));
    const auto body = got.json();
    BOOST_TEST(body.at("statusCode").as_int64() == 404);
    BOOST_TEST(body.at("error").as_string() == "Not Found");
    BOOST_TEST(body.at("message").as_string() == "Cannot GET /api/v1/nothing-here");
}

BOOST_AUTO_TEST_CASE(a_wrong_method_is_a_405_with_allow) {
    const seen got = dispatched(request_of(http::verb::patch, "/api/v1/products"));
    BOOST_TEST(got.status == 405u);
    const std::string allow = got.field("Allow");
    BOOST_TEST(allow.find("GET") != std::string::npos);
    BOOST_TEST(allow.find("POST") != std::string::npos);
    BOOST_TEST(allow.find("PATCH") == std::string::npos);
    BOOST_TEST(got.json().at("statusCode").as_int64() == 405);
}

BOOST_AUTO_TEST_CASE(options_is_the_cors_preflight) {
    const seen got = dispatched(request_of(http::verb::options, "/api/v1/products"));
    BOOST_TEST(got.status == 204u);
    BOOST_TEST(got.field("Access-Control-Allow-Methods") == got.field("Allow"));
    BOOST_TEST(got.field("Access-Control-Allow-Headers").find("X-Sandbox") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(a_body_over_the_route_limit_is_a_413) {
    const std::string big(65 * 1024, 'x');  // the test configuration's JSON limit is 64 KiB
    // Declared in Content-Length: refused on the head.
    const seen declared = dispatched(request_of(http::verb::post, "/api/v1/products", big));
    BOOST_TEST(declared.status == 413u);
    BOOST_TEST(declared.json().at("message").as_string() == "Request body too large");
    // Handed in whole without a Content-Length: refused before the handler all the same.
    http_request undeclared = request_of(http::verb::post, "/api/v1/products", big);
    undeclared.erase(http::field::content_length);
    BOOST_TEST(dispatched(undeclared).status == 413u);
}

BOOST_AUTO_TEST_CASE(a_refusal_on_the_head_reads_no_body) {
    unread_body body;
    const http_request request = request_of(http::verb::post, "/api/v1/nothing-here", "{}");
    const request_outcome out = run(handle_request(request, body, app().routing()));
    BOOST_TEST(body.reads == 0);
    BOOST_TEST(static_cast<unsigned>(out.reply.status) == 404u);
    // The unread body cannot be skipped: the connection closes after the answer.
    BOOST_TEST((out.outcome == request_outcome::kind::answered_unread));
}

BOOST_AUTO_TEST_CASE(a_body_that_never_arrives_abandons_the_request) {
    unread_body body;
    const http_request request = request_of(http::verb::post, "/api/v1/users/is-available", "{}");
    const request_outcome out = run(handle_request(request, body, app().routing()));
    BOOST_TEST(body.reads == 1);
    BOOST_TEST((out.outcome == request_outcome::kind::abandoned));
}

BOOST_AUTO_TEST_CASE(only_a_reusable_get_may_be_replayed) {
    read_body_source body;
    const request_outcome list =
        run(handle_request(request_of(http::verb::get, "/api/v1/products?limit=2"), body, app().routing()));
    BOOST_TEST(static_cast<unsigned>(list.reply.status) == 200u);
    BOOST_TEST(list.reusable_at.has_value());
    BOOST_TEST(list.matched != nullptr);
    const request_outcome missing =
        run(handle_request(request_of(http::verb::get, "/api/v1/nothing-here"), body, app().routing()));
    BOOST_TEST(!missing.reusable_at.has_value());
}

BOOST_AUTO_TEST_CASE(read_only_shared_view_refuses_a_write) {
    required_sandboxes required;
    routing_services services = app().routing();
    services.sandboxes = &required;
    const seen write =
        dispatched(request_of(http::verb::post, "/api/v1/products", R"({"title":"Lamp"})"), services);
    BOOST_TEST(write.status == 403u);
    BOOST_TEST(std::string(write.json().at("message").as_string()).find("read-only") != std::string::npos);
    // Reads of the shared view go on.
    BOOST_TEST(dispatched(request_of(http::verb::get, "/api/v1/products?limit=1"), services).status == 200u);
}

BOOST_AUTO_TEST_CASE(a_sandbox_named_while_sandboxes_are_off_is_refused) {
    routing_services services = app().routing();
    services.sandboxes = nullptr;  // --sandboxes off
    const seen by_prefix = dispatched(
        request_of(http::verb::post, "/sandbox/team-a/api/v1/products", R"({"title":"Lamp"})"), services
    );
    BOOST_TEST(by_prefix.status == 404u);
    BOOST_TEST(by_prefix.json().at("statusCode").as_int64() == 404);
    http_request by_header = request_of(http::verb::post, "/api/v1/products", R"({"title":"Lamp"})");
    by_header.set("X-Sandbox", "team-a");
    const seen refused = dispatched(by_header, services);
    BOOST_TEST(refused.status == 400u);
    BOOST_TEST(refused.json().at("statusCode").as_int64() == 400);
}

BOOST_AUTO_TEST_CASE(storage_unavailable_is_a_503_with_retry_after) {
    const routing_services services{failing_router(), app().routing().limits, app().routing().access};
    const seen down = dispatched(request_of(http::verb::get, "/api/v1/down"), services);
    BOOST_TEST(down.status == 503u);
    BOOST_TEST(down.field("Retry-After") == "2");
    BOOST_TEST(down.json().at("statusCode").as_int64() == 503);
    // The backend's own words stay in the log.
    BOOST_TEST(down.body.find("connection refused") == std::string::npos);
    // The same failure on the pet store answers in its shape.
    const seen pet = dispatched(request_of(http::verb::get, "/api/v3/down"), services);
    BOOST_TEST(pet.status == 503u);
    BOOST_TEST(pet.field("Retry-After") == "2");
    BOOST_TEST(pet.json().at("code").as_int64() == 503);
    // A full storage pool: busy, retry sooner.
    const seen full = dispatched(request_of(http::verb::get, "/api/v1/full"), services);
    BOOST_TEST(full.status == 503u);
    BOOST_TEST(full.field("Retry-After") == "1");
}

BOOST_AUTO_TEST_CASE(any_other_failure_is_a_500_without_details) {
    const routing_services services{failing_router(), app().routing().limits, app().routing().access};
    const seen got = dispatched(request_of(http::verb::get, "/api/v1/broken"), services);
    BOOST_TEST(got.status == 500u);
    BOOST_TEST(got.field("Retry-After") == "-");
    BOOST_TEST(got.body.find("broken invariant") == std::string::npos);
}

BOOST_AUTO_TEST_SUITE_END()
