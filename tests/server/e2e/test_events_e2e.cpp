// End to end over HTTP: the change feed as server-sent events (issue 43) on one server per backend shared
// by the cases (small history, queue and stream limit so the bounds show quickly): on every backend
// (memory and SQLite here, PostgreSQL under server_tests_pg), delivery of product, category and user
// changes as GET shows them, type filters, resuming with and without history, sandbox isolation both ways;
// on the first one, a slow consumer closed with `overflow` while another keeps receiving, the stream
// limit's 503, the metrics; and (on the real binary) the drain closing streams with a retry hint.

#include <chrono>
#include <cstdlib>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>

#include "backend_matrix.hpp"
#include "common/child_process.hpp"
#include "common/eventually.hpp"
#include "common/pg_server.hpp"
#include "common/temp_dir.hpp"
#include "http_client.hpp"
#include "sse_client.hpp"
#include "test_server.hpp"

namespace json = boost::json;
using namespace storefront;
using namespace storefront::test;
using namespace std::chrono_literals;

namespace {

constexpr std::size_t history = 20;
constexpr std::size_t queue = 8;
constexpr std::size_t max_streams = 6;

// One server per backend of this run (memory and SQLite; PostgreSQL under server_tests_pg), each started on
// first use and shared by the cases; `current_backend` is the one the helpers talk to. Cases about the
// feed's own bounds (overflow, the stream limit, metrics, handshakes) run on the first backend only.
struct feed_backend {
    backend where;
    std::unique_ptr<running_server> server;
};

std::vector<feed_backend>& feed_backends() {
    static temp_dir dir;
    static std::vector<feed_backend> all = [] {
        std::vector<feed_backend> out;
        for (auto& b : backends(dir, "feed.db")) {
            out.push_back({std::move(b), nullptr});
        }
        // Before static destruction, which comes after OpenSSL's own atexit clean-up too: a storage pool
        // thread that exits after it keeps the OpenSSL error state it made (a sandbox's HMAC on PostgreSQL),
        // which LeakSanitizer reports as 904-byte leaks.
        stop_when_the_run_ends([] {
            for (auto& b : all) {
                b.server.reset();
            }
        });
        return out;
    }();
    return all;
}

std::size_t current_backend = 0;

running_server& events_server() {
    auto& b = feed_backends().at(current_backend);
    if (!b.server) {
        auto c = config_on(b.where.storage);
        c.events.history = history;
        c.events.queue = queue;
        c.events.max_connections = max_streams;
        c.cors = server::cors_origins::parse("http://localhost:*");  // the WebSocket handshake's Origin check
        b.server = std::make_unique<running_server>(std::move(c));
    }
    return *b.server;
}

std::uint16_t port() {
    return events_server().port();
}

std::string product_body(const std::string& title, std::size_t description_bytes = 10) {
    return R"({"title":")" + title + R"(","price":12,"description":")" + std::string(description_bytes, 'd') +
           R"(","categoryId":1,"images":["https://placehold.co/600x400"]})";
}

// Creates a product through `base` ("" or "/sandbox/{id}") and answers its id.
std::int64_t create_product(const std::string& title, const std::string& base = "", std::size_t bytes = 10) {
    const auto reply = post_json(port(), base + "/api/v1/products", product_body(title, bytes));
    BOOST_TEST_REQUIRE(reply.status == 201u, reply.body);
    return reply.json().at("id").as_int64();
}

// A stream whose head was read and checked (200 text/event-stream, retry hint first).
std::unique_ptr<sse_client> open_stream(
    const std::string& target,
    const std::vector<std::pair<std::string, std::string>>& headers = {},
    int receive_buffer = 0
) {
    auto s = std::make_unique<sse_client>(port(), target, headers, receive_buffer);
    s->read_head();
    BOOST_TEST_REQUIRE(s->status == 200u, s->head);  // (a message is evaluated even when the check holds)
    BOOST_TEST(s->head.find("content-type: text/event-stream") != std::string::npos);
    BOOST_TEST(s->head.find("content-length") == std::string::npos);
    const auto first = s->next_block();
    BOOST_TEST_REQUIRE(first.has_value());
    BOOST_TEST(first->retry == "3000");
    return s;
}

// The next event, parsed; fails the test when none comes.
json::object next_data(sse_client& s, std::string* type = nullptr, std::string* id = nullptr) {
    const auto e = s.next_event();
    BOOST_TEST_REQUIRE(e.has_value(), "no event arrived");
    if (type != nullptr) {
        *type = e->event;
    }
    if (id != nullptr) {
        *id = e->id;
    }
    auto doc = json::parse(e->data).as_object();
    BOOST_TEST(doc.at("type").as_string() == e->event);
    BOOST_TEST(doc.at("id").as_string() == e->id);
    return doc;
}

void wait_for_no_streams() {
    BOOST_TEST_REQUIRE(eventually([] { return metric(port(), "storefront_event_subscribers") == 0; }, 5s));
}

}  // namespace

namespace storefront::test {
// The server of the change feed suites (test_events_websocket_e2e.cpp shares it).
std::uint16_t events_server_port() {
    return port();
}

void on_every_feed_backend(const std::function<void()>& body) {
    struct back_to_the_first {
        ~back_to_the_first() { current_backend = 0; }
    } reset;
    for (current_backend = 0; current_backend < feed_backends().size(); ++current_backend) {
        BOOST_TEST_CONTEXT("on " << feed_backends()[current_backend].where.name) {
            // Each body opens up to four of the server's six streams: the server must have seen the streams
            // of the case before close (on a loaded machine it can take a moment), or it rightly answers 503.
            wait_for_no_streams();
            body();
        }
    }
}
}  // namespace storefront::test

BOOST_AUTO_TEST_SUITE(change_feed_sse)

BOOST_AUTO_TEST_CASE(writes_arrive_after_commit_as_get_shows_them) {
    on_every_feed_backend([] {
        auto stream = open_stream("/api/v1/events");
        const auto id = create_product("Feed Lamp");
        std::string type;
        std::string first_id;
        auto created = next_data(*stream, &type, &first_id);
        BOOST_TEST(type == "product.created");
        const auto shown = get(port(), "/api/v1/products/" + std::to_string(id)).json();
        BOOST_TEST(created.at("data") == shown);
        BOOST_TEST(created.at("at").as_string().ends_with("Z"));

        BOOST_TEST(
            send_request(
                port(),
                {.method = "PUT",
                 .target = "/api/v1/products/" + std::to_string(id),
                 .body = R"({"price":13})",
                 .content_type = "application/json"}
            )
                .status == 200u
        );
        std::string second_id;
        auto updated = next_data(*stream, &type, &second_id);
        BOOST_TEST(type == "product.updated");
        BOOST_TEST(updated.at("data").at("price").to_number<double>() == 13.0);
        BOOST_TEST(std::stoull(second_id) == std::stoull(first_id) + 1);

        BOOST_TEST(
            send_request(port(), {.method = "DELETE", .target = "/api/v1/products/" + std::to_string(id)})
                .status == 200u
        );
        auto deleted = next_data(*stream, &type);
        BOOST_TEST(type == "product.deleted");
        BOOST_TEST(json::serialize(deleted.at("data")) == R"({"id":)" + std::to_string(id) + "}");

        const auto category =
            post_json(port(), "/api/v1/categories", R"({"name":"Feed Lamps","image":"https://x.com/a.png"})");
        BOOST_TEST_REQUIRE(category.status == 201u, category.body);
        BOOST_TEST(next_data(*stream, &type).at("data") == category.json());
        BOOST_TEST(type == "category.created");

        const auto user = post_json(
            port(),
            "/api/v1/users",
            R"({"name":"Feed","email":"feed@example.com","password":"secret123","avatar":"https://x.com/a.png"})"
        );
        BOOST_TEST_REQUIRE(user.status == 201u, user.body);
        auto user_event = next_data(*stream, &type);
        BOOST_TEST(type == "user.created");
        BOOST_TEST(user_event.at("data") == user.json());
        BOOST_TEST(user_event.at("data").as_object().if_contains("passwordHash") == nullptr);
    });
}

BOOST_AUTO_TEST_CASE(types_filter_what_a_stream_carries_and_unknown_ones_are_refused) {
    on_every_feed_backend([] {
        auto categories = open_stream("/api/v1/events?types=category.*,user.deleted");
        (void)create_product("Filtered Out");
        const auto category = post_json(
            port(), "/api/v1/categories", R"({"name":"Filter Kept","image":"https://x.com/a.png"})"
        );
        BOOST_TEST_REQUIRE(category.status == 201u);
        std::string type;
        BOOST_TEST(next_data(*categories, &type).at("data").at("name").as_string() == "Filter Kept");
        BOOST_TEST(type == "category.created");

        const auto refused = get(port(), "/api/v1/events?types=product.*,product.exploded");
        BOOST_TEST(refused.status == 400u);
        BOOST_TEST(refused.header("content-type").find("application/json") != std::string::npos);
        const std::string message = json::serialize(refused.json().at("message"));
        BOOST_TEST(message.find("product.*") != std::string::npos);
        BOOST_TEST(message.find("category.updated") != std::string::npos);

        http_request_spec wants_json{.target = "/api/v1/events", .headers = {{"Accept", "application/json"}}};
        BOOST_TEST(send_request(port(), wants_json).status == 406u);
        BOOST_TEST(get(port(), "/api/v1/events?lastEventId=12x").status == 400u);
        http_request_spec bad_header{.target = "/api/v1/events", .headers = {{"Last-Event-ID", "-1"}}};
        BOOST_TEST(send_request(port(), bad_header).status == 400u);
    });
}

BOOST_AUTO_TEST_CASE(a_resumed_stream_gets_what_it_missed_or_a_reset_beyond_the_history) {
    on_every_feed_backend([] {
        std::string last;
        {
            auto stream = open_stream("/api/v1/events");
            (void)create_product("Resume Zero");
            (void)next_data(*stream, nullptr, &last);
        }
        (void)create_product("Resume One");
        (void)create_product("Resume Two");
        auto resumed = open_stream("/api/v1/events", {{"Last-Event-ID", last}});
        std::string id;
        BOOST_TEST(next_data(*resumed, nullptr, &id).at("data").at("title").as_string() == "Resume One");
        BOOST_TEST(std::stoull(id) == std::stoull(last) + 1);
        BOOST_TEST(next_data(*resumed).at("data").at("title").as_string() == "Resume Two");
        (void)create_product("Resume Live");
        BOOST_TEST(next_data(*resumed).at("data").at("title").as_string() == "Resume Live");

        auto by_query = open_stream("/api/v1/events?types=product.created&lastEventId=" + last);
        BOOST_TEST(next_data(*by_query).at("data").at("title").as_string() == "Resume One");

        for (std::size_t i = 0; i < history + 2; ++i) {  // `last` falls out of the history
            (void)create_product("Flood " + std::to_string(i));
        }
        auto too_old = open_stream("/api/v1/events", {{"Last-Event-ID", last}});
        const auto reset = too_old->next_event();
        BOOST_TEST_REQUIRE(reset.has_value());
        BOOST_TEST(reset->event == "reset");
        BOOST_TEST(std::stoull(reset->id) > std::stoull(last));
        (void)create_product("After Reset");
        BOOST_TEST(next_data(*too_old).at("data").at("title").as_string() == "After Reset");
    });
}

BOOST_AUTO_TEST_CASE(a_sandbox_stream_and_the_shared_stream_never_see_each_others_changes) {
    on_every_feed_backend([] {
        auto shared = open_stream("/api/v1/events");
        auto boxed = open_stream("/sandbox/feed-box-1/api/v1/events");
        auto by_header = open_stream("/api/v1/events", {{"X-Sandbox", "feed-box-1"}});
        auto other_box = open_stream("/sandbox/feed-box-2/api/v1/events");

        (void)create_product("In The Box", "/sandbox/feed-box-1");
        std::string id;
        BOOST_TEST(next_data(*boxed, nullptr, &id).at("data").at("title").as_string() == "In The Box");
        BOOST_TEST(id == "1");  // ids are per data set
        BOOST_TEST(next_data(*by_header).at("data").at("title").as_string() == "In The Box");

        (void)create_product("In The Shared View");
        // The shared stream's next event is its own write, not the sandbox's.
        BOOST_TEST(next_data(*shared).at("data").at("title").as_string() == "In The Shared View");
        (void)create_product("Box Again", "/sandbox/feed-box-1");
        BOOST_TEST(next_data(*boxed, nullptr, &id).at("data").at("title").as_string() == "Box Again");
        BOOST_TEST(id == "2");
        (void)create_product("Other Box", "/sandbox/feed-box-2");
        BOOST_TEST(next_data(*other_box).at("data").at("title").as_string() == "Other Box");
        BOOST_TEST(!boxed->next_event(300ms).has_value());
    });
}

BOOST_AUTO_TEST_CASE(a_client_that_stops_reading_is_closed_with_overflow_while_others_keep_up) {
    wait_for_no_streams();
    const double overflows = metric(port(), "storefront_event_overflow_closes_total");
    auto slow = open_stream("/sandbox/feed-slow/api/v1/events", {}, 4096);
    auto quick = open_stream("/sandbox/feed-slow/api/v1/events");
    constexpr int writes = 120;
    int received = 0;
    for (int i = 0; i < writes; ++i) {
        (void)create_product("Slow " + std::to_string(i), "/sandbox/feed-slow", 4000);
        if (quick->next_event(3s)) {  // the quick one reads each event as it comes
            ++received;
        }
    }
    BOOST_TEST(received == writes);
    BOOST_TEST(eventually(
        [&] { return metric(port(), "storefront_event_overflow_closes_total") == overflows + 1; }, 5s
    ));
    const std::string bytes = slow->drain(10s);
    BOOST_TEST(slow->server_closed());
    BOOST_TEST(bytes.find("event: overflow\n") != std::string::npos);
    BOOST_TEST(bytes.find("Slow " + std::to_string(writes - 1)) == std::string::npos);
}

BOOST_AUTO_TEST_CASE(streams_beyond_the_limit_get_503_until_one_closes) {
    wait_for_no_streams();
    std::vector<std::unique_ptr<sse_client>> open;
    for (std::size_t i = 0; i < max_streams; ++i) {
        open.push_back(open_stream("/api/v1/events"));
    }
    BOOST_TEST(metric(port(), "storefront_event_subscribers") == static_cast<double>(max_streams));
    sse_client refused(port(), "/api/v1/events");
    refused.read_head();
    BOOST_TEST(refused.status == 503u);
    BOOST_TEST(refused.head.find("retry-after:") != std::string::npos);
    BOOST_TEST(refused.head.find("application/json") != std::string::npos);
    BOOST_TEST(get(port(), "/api/v1/products/1").status == 200u);  // the rest of the API is unaffected
    open.back()->close();
    open.pop_back();
    BOOST_TEST(eventually(
        [] { return metric(port(), "storefront_event_subscribers") == static_cast<double>(max_streams - 1); },
        5s
    ));
    auto again = open_stream("/api/v1/events");
    (void)create_product("Limit Passed");
    BOOST_TEST(next_data(*again).at("data").at("title").as_string() == "Limit Passed");
}

BOOST_AUTO_TEST_CASE(events_sent_are_counted) {
    const double before = metric(port(), "storefront_events_sent_total");
    auto stream = open_stream("/api/v1/events");
    (void)create_product("Counted");
    (void)next_data(*stream);
    BOOST_TEST(metric(port(), "storefront_events_sent_total") >= before + 1);
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(change_feed_drain)

// The real binary: SIGTERM starts the drain, and every open stream ends at once with a retry hint (its
// client reconnects to another instance), long before the drain period is over.
BOOST_AUTO_TEST_CASE(sigterm_closes_streams_with_a_retry_hint) {
    child_process server(instance_args("memory", {"--drain-seconds", "10"}));
    const auto port = server.wait_listening(20s);
    sse_client stream(port, "/api/v1/events");
    stream.read_head();
    BOOST_TEST_REQUIRE(stream.status == 200u);
    BOOST_TEST_REQUIRE(stream.next_block().has_value());
    const auto started = std::chrono::steady_clock::now();
    server.signal(SIGTERM);
    std::string tail;
    BOOST_TEST(stream.closed_within(3s, &tail));
    BOOST_TEST((std::chrono::steady_clock::now() - started < 3s));
    BOOST_TEST(tail.find("retry: 1000\n") != std::string::npos, tail);
    // Opened during the drain: the hint at once, no stream.
    sse_client late(port, "/api/v1/events");
    late.read_head();
    BOOST_TEST(late.status == 200u);
    std::string late_tail;
    BOOST_TEST(late.closed_within(3s, &late_tail));
    BOOST_TEST(late_tail.find("retry: 1000\n") != std::string::npos);
    server.signal(SIGTERM);  // a second signal ends the drain
    BOOST_TEST((server.wait_exit(15s) == std::optional<int>(0)));
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(change_feed_pg)

// Two processes on one PostgreSQL (server_tests_pg runs this in a throw-away cluster): a write through one
// reaches the streams of both within a second with the same event id, in the shared view and in a sandbox,
// and a client resumes on the other instance from an id the first one sent.
BOOST_AUTO_TEST_CASE(a_write_through_one_instance_reaches_the_streams_of_another_with_the_same_ids) {
    if (!std::getenv("TEST_PG_DSN")) {
        BOOST_TEST_MESSAGE("skipped: TEST_PG_DSN unset (ctest runs this as server_tests_pg)");
        return;
    }
    const std::string dsn = create_test_database();
    child_process a(instance_args(dsn, {"--storage-pool", "2"}));
    const auto port_a = a.wait_listening(60s);
    child_process b(instance_args(dsn, {"--storage-pool", "2"}));
    const auto port_b = b.wait_listening(60s);

    sse_client on_a(port_a, "/api/v1/events");
    sse_client on_b(port_b, "/api/v1/events");
    sse_client box_on_b(port_b, "/sandbox/pg-feed-box/api/v1/events");
    for (auto* s : {&on_a, &on_b, &box_on_b}) {
        BOOST_TEST_REQUIRE(s->read_head_until_following(), s->status << " " << s->head);
    }
    const auto created = post_json(port_a, "/api/v1/products", product_body("Across Instances"));
    BOOST_TEST_REQUIRE(created.status == 201u, created.body);
    const auto sent_at = std::chrono::steady_clock::now();
    const auto from_b = on_b.next_event(1500ms);
    BOOST_TEST_REQUIRE(from_b.has_value(), "instance B's stream got nothing");
    BOOST_TEST((std::chrono::steady_clock::now() - sent_at < 1s));
    BOOST_TEST(from_b->event == "product.created");
    BOOST_TEST(json::parse(from_b->data).at("data") == created.json());
    const auto from_a = on_a.next_event();
    BOOST_TEST_REQUIRE(from_a.has_value());
    BOOST_TEST(from_a->id == from_b->id);

    const auto second = post_json(port_b, "/api/v1/products", product_body("Back The Other Way"));
    BOOST_TEST_REQUIRE(second.status == 201u);
    const auto second_on_a = on_a.next_event(1500ms);
    BOOST_TEST_REQUIRE(second_on_a.has_value());
    BOOST_TEST(std::stoull(second_on_a->id) == std::stoull(from_a->id) + 1);
    const auto second_on_b = on_b.next_event();
    BOOST_TEST_REQUIRE(second_on_b.has_value());
    BOOST_TEST(second_on_b->id == second_on_a->id);

    // Resuming on B from an id A sent: the event B's own client may have missed comes from the shared
    // history.
    sse_client resumed(port_b, "/api/v1/events", {{"Last-Event-ID", from_a->id}});
    resumed.read_head();
    const auto replayed = resumed.next_event();
    BOOST_TEST_REQUIRE(replayed.has_value());
    BOOST_TEST(replayed->id == second_on_a->id);

    // A sandbox's write through A reaches its stream on B, and not the shared view's.
    const auto boxed = post_json(port_a, "/sandbox/pg-feed-box/api/v1/products", product_body("Boxed"));
    BOOST_TEST_REQUIRE(boxed.status == 201u, boxed.body);
    const auto box_event = box_on_b.next_event(1500ms);
    BOOST_TEST_REQUIRE(box_event.has_value());
    BOOST_TEST(box_event->id == "1");
    BOOST_TEST(!on_b.next_event(300ms).has_value());
}

BOOST_AUTO_TEST_SUITE_END()
