// End to end over HTTP: the request inspector of a sandbox (issue 43) on one in-process server shared by
// the cases: records newest first with status and duration; Authorization, Cookie, passwords and card
// numbers never appear in them; a body over 4 KiB is cut with the flag; the shared view has no inspector;
// DELETE clears; the stream delivers a new record; one sandbox never sees another's requests; bad limits;
// the page and its files. On PostgreSQL (server_tests_pg), two instances on one database list and stream
// each other's records.

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <memory>
#include <string>

#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>

#include "backend_matrix.hpp"
#include "common/child_process.hpp"
#include "common/eventually.hpp"
#include "common/pg_server.hpp"
#include "http_client.hpp"
#include "sse_client.hpp"
#include "test_server.hpp"

namespace json = boost::json;
using namespace storefront;
using namespace storefront::test;
using namespace std::chrono_literals;

// A namespace of its own: a unity build compiles this file beside others whose helpers share names.
namespace inspector_e2e_file {
namespace {

std::uint16_t port() {
    static std::unique_ptr<running_server> server = [] {
        auto s = std::make_unique<running_server>(config_on("memory"));
        stop_when_the_run_ends([] { server.reset(); });
        return s;
    }();
    return server->port();
}

http_reply call(
    const std::string& method,
    const std::string& target,
    const std::string& body = "",
    const std::vector<std::pair<std::string, std::string>>& headers = {},
    const std::string& content_type = "application/json"
) {
    return send_request(
        port(),
        {.method = method,
         .target = target,
         .body = body,
         .content_type = body.empty() ? "" : content_type,
         .headers = headers}
    );
}

// The sandbox's records, newest first.
json::array records(const std::string& sandbox, const std::string& query = "") {
    const auto reply = call("GET", "/sandbox/" + sandbox + "/requests" + query);
    BOOST_TEST_REQUIRE(reply.status == 200u, reply.body);
    return reply.json().as_array();
}

}  // namespace

BOOST_AUTO_TEST_SUITE(inspector_e2e)

BOOST_AUTO_TEST_CASE(records_come_newest_first_with_status_and_duration) {
    const std::string box = "insp-order";
    BOOST_TEST(call("GET", "/sandbox/" + box + "/api/v1/products/1").status == 200u);
    BOOST_TEST(call("GET", "/sandbox/" + box + "/api/v1/products/999999?x=1").status == 404u);
    const auto all = records(box);
    BOOST_TEST_REQUIRE(all.size() == 2u);  // the inspector's own requests are not recorded
    BOOST_TEST(all[0].at("path").as_string() == "/sandbox/" + box + "/api/v1/products/999999");
    BOOST_TEST(all[0].at("query").as_string() == "x=1");
    BOOST_TEST(all[0].at("status").as_int64() == 404);
    BOOST_TEST(all[1].at("method").as_string() == "GET");
    BOOST_TEST(all[1].at("status").as_int64() == 200);
    BOOST_TEST(all[1].at("durationMs").to_number<double>() >= 0.0);
    BOOST_TEST(all[1].at("response").at("body").as_string().find("\"id\":1") != std::string::npos);
    BOOST_TEST(all[1].at("at").as_string().size() == 24u);  // 2026-11-27T13:40:00.000Z
    BOOST_TEST(records(box, "?limit=1").size() == 1u);
    // The X-Sandbox header's requests are the sandbox's too.
    BOOST_TEST(call("GET", "/api/v1/categories", "", {{"X-Sandbox", box}}).status == 200u);
    BOOST_TEST(records(box)[0].at("path").as_string() == "/api/v1/categories");
}

BOOST_AUTO_TEST_CASE(secrets_never_appear_in_records) {
    const std::string box = "insp-secrets";
    const std::string base = "/sandbox/" + box + "/api/v1";
    const auto login =
        call("POST", base + "/auth/login", R"({"email":"admin@mail.com","password":"admin123"})");
    BOOST_TEST_REQUIRE(login.status == 201u, login.body);
    const std::string token = std::string(login.json().at("access_token").as_string());
    const std::string bearer = "Bearer " + token;
    (void)call(
        "GET",
        base + "/auth/profile?api_key=query-key-123",
        "",
        {{"Authorization", bearer}, {"Cookie", "sf_access=cookie-value-xyz"}}
    );
    // The body is read (the caller is admitted), so it is recorded: without its card number and CVC.
    (void)call(
        "POST",
        base + "/orders/1/payments",
        R"({"card":{"number":"4242424242424242","cvc":"987","expMonth":12,"expYear":2031}})",
        {{"Authorization", bearer}}
    );
    (void)call(
        "POST",
        base + "/auth/login",
        "email=a%40b.c&password=form-pw-777",
        {},
        "application/x-www-form-urlencoded"
    );
    const auto reply = call("GET", "/sandbox/" + box + "/requests");
    BOOST_TEST_REQUIRE(reply.status == 200u);
    const auto all = reply.json().as_array();
    BOOST_TEST_REQUIRE(all.size() == 4u);
    for (const std::string& secret :
         {token,
          std::string("admin123"),
          std::string("query-key-123"),
          std::string("cookie-value-xyz"),
          std::string("4242424242424242"),
          std::string("\"987\""),
          std::string("form-pw-777")}) {
        BOOST_TEST(reply.body.find(secret) == std::string::npos, secret);
    }
    const auto& payment = all[1];
    BOOST_TEST(payment.at("body").as_string().find("[redacted]") != std::string::npos);
    BOOST_TEST(payment.at("body").as_string().find("2031") != std::string::npos);  // the rest as sent
    const auto& profile = all[2];
    BOOST_TEST(profile.at("headers").at("authorization").as_string() == "[redacted]");
    BOOST_TEST(profile.at("headers").at("cookie").as_string() == "[redacted]");
    BOOST_TEST(profile.at("query").as_string() == "api_key=[redacted]");
    BOOST_TEST(all[3].at("response").at("body").as_string().find("access_token") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(bodies_over_4_kib_are_cut_with_the_flag) {
    const std::string box = "insp-big";
    // A route that reads its body whoever calls (a body answered on the head alone is never read).
    const std::string big = R"({"email":")" + std::string(6000, 'e') + R"(","password":"x"})";
    (void)call("POST", "/sandbox/" + box + "/api/v1/auth/login", big);
    const auto r = records(box).at(0);
    BOOST_TEST(r.at("bodyTruncated").as_bool());
    BOOST_TEST(r.at("body").as_string().size() == 4096u);
    BOOST_TEST(r.at("bodySize").as_int64() == static_cast<std::int64_t>(big.size()));
    BOOST_TEST(!r.at("response").at("bodyTruncated").as_bool());
}

BOOST_AUTO_TEST_CASE(the_shared_view_has_no_inspector) {
    BOOST_TEST(call("GET", "/requests").status == 404u);
    BOOST_TEST(call("GET", "/api/v1/requests").status == 404u);
}

BOOST_AUTO_TEST_CASE(delete_clears_and_bad_limits_are_400) {
    const std::string box = "insp-clear";
    (void)call("GET", "/sandbox/" + box + "/api/v1/categories");
    BOOST_TEST(records(box).size() == 1u);
    const auto cleared = call("DELETE", "/sandbox/" + box + "/requests");
    BOOST_TEST(cleared.status == 204u);
    BOOST_TEST(records(box).empty());
    for (const char* bad : {"?limit=0", "?limit=1001", "?limit=abc", "?limit=", "?limit=5&limit=6"}) {
        const auto reply = call("GET", "/sandbox/" + box + "/requests" + bad);
        BOOST_TEST(reply.status == 400u, bad);
        BOOST_TEST(reply.json().at("message").as_string().size() > 0u);
    }
    BOOST_TEST(call("PUT", "/sandbox/" + box + "/requests").status == 405u);
}

BOOST_AUTO_TEST_CASE(the_stream_delivers_a_new_record) {
    const std::string box = "insp-stream";
    sse_client stream(port(), "/sandbox/" + box + "/requests/stream");
    stream.read_head();
    BOOST_TEST_REQUIRE(stream.status == 200u, stream.head);
    BOOST_TEST(stream.head.find("content-type: text/event-stream") != std::string::npos);
    const auto hint = stream.next_block();
    BOOST_TEST_REQUIRE(hint.has_value());
    BOOST_TEST(hint->retry == "3000");
    (void)call("GET", "/sandbox/" + box + "/api/v1/products/2");
    const auto event = stream.next_event();
    BOOST_TEST_REQUIRE(event.has_value());
    BOOST_TEST(event->event == "request");
    const auto record = json::parse(event->data);
    BOOST_TEST(record.at("path").as_string() == "/sandbox/" + box + "/api/v1/products/2");
    BOOST_TEST(record.at("status").as_int64() == 200);
}

BOOST_AUTO_TEST_CASE(resetting_the_sandbox_ends_its_streams) {
    const std::string box = "insp-reset";
    sse_client stream(port(), "/sandbox/" + box + "/requests/stream");
    stream.read_head();
    BOOST_TEST_REQUIRE(stream.status == 200u, stream.head);
    BOOST_TEST_REQUIRE(stream.next_block().has_value());  // the retry hint: following from here
    BOOST_TEST(call("DELETE", "/sandbox/" + box).status == 204u);
    BOOST_TEST(stream.closed_within(std::chrono::milliseconds(2000)));
}

BOOST_AUTO_TEST_CASE(one_sandbox_never_sees_anothers_requests) {
    (void)call("GET", "/sandbox/insp-mine/api/v1/products/3");
    (void)call("GET", "/sandbox/insp-theirs/api/v1/categories/1");
    const auto mine = records("insp-mine");
    BOOST_TEST_REQUIRE(mine.size() == 1u);
    BOOST_TEST(mine[0].at("path").as_string() == "/sandbox/insp-mine/api/v1/products/3");
    const auto theirs = records("insp-theirs");
    BOOST_TEST_REQUIRE(theirs.size() == 1u);
    BOOST_TEST(theirs[0].at("path").as_string() == "/sandbox/insp-theirs/api/v1/categories/1");
    // Resetting a sandbox drops its records.
    BOOST_TEST(call("DELETE", "/sandbox/insp-mine").status == 204u);
    BOOST_TEST(records("insp-mine").empty());
}

BOOST_AUTO_TEST_CASE(the_page_and_its_files_are_served_without_being_recorded) {
    const std::string box = "insp-page";
    const auto page = call("GET", "/sandbox/" + box + "/inspector");
    BOOST_TEST(page.status == 200u);
    BOOST_TEST(page.header("content-type").find("text/html") != std::string::npos);
    BOOST_TEST(page.body.find("inspector/inspector.js") != std::string::npos);
    BOOST_TEST(page.header("content-security-policy").find("script-src 'self'") != std::string::npos);
    const auto script = call("GET", "/sandbox/" + box + "/inspector/inspector.js");
    BOOST_TEST(script.status == 200u);
    BOOST_TEST(script.body.find("/requests/stream") != std::string::npos);
    BOOST_TEST(call("GET", "/sandbox/" + box + "/inspector/inspector.css").status == 200u);
    BOOST_TEST(call("GET", "/sandbox/" + box + "/inspector/nothing.js").status == 404u);
    BOOST_TEST(records(box).empty());
    BOOST_TEST(call("GET", "/inspector").status == 404u);  // the shared view has none
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(inspector_pg)

// Two processes on one PostgreSQL (server_tests_pg runs this in a throw-away cluster): behind a balancer a
// client sees every instance's requests for its sandbox. A stream on B hears a request A handled (its
// secret header redacted: the database only ever gets the record), both instances list both requests
// newest first, a DELETE through A clears them for B while B's stream goes on, another sandbox's requests
// stay out, and each sandbox keeps its last 1,000.
BOOST_AUTO_TEST_CASE(every_instance_lists_and_streams_the_requests_any_instance_handled) {
    if (!std::getenv("TEST_PG_DSN")) {
        BOOST_TEST_MESSAGE("skipped: TEST_PG_DSN unset (ctest runs this as server_tests_pg)");
        return;
    }
    const std::string dsn = create_test_database();
    child_process a(instance_args(dsn, {"--storage-pool", "2"}));
    const auto port_a = a.wait_listening(60s);
    child_process b(instance_args(dsn, {"--storage-pool", "2"}));
    const auto port_b = b.wait_listening(60s);
    const std::string box = "/sandbox/pg-inspected";
    const auto listed = [&](std::uint16_t port) {
        const auto reply = get(port, box + "/requests?limit=1000");
        BOOST_TEST_REQUIRE(reply.status == 200u, reply.body);
        return reply.json().as_array();
    };

    sse_client on_b(port_b, box + "/requests/stream");
    on_b.read_head();
    BOOST_TEST_REQUIRE(on_b.status == 200u, on_b.head);
    BOOST_TEST_REQUIRE(on_b.next_block().has_value());  // the retry hint: following from here

    const auto through_a = send_request(
        port_a, {.target = box + "/api/v1/products/1?trace=a", .headers = {{"X-Api-Key", "pg-secret-value"}}}
    );
    BOOST_TEST_REQUIRE(through_a.status == 200u);
    const auto heard = on_b.next_event(3s);
    BOOST_TEST_REQUIRE(heard.has_value(), "instance B's stream heard nothing of A's request");
    BOOST_TEST(heard->event == "request");
    BOOST_TEST(heard->data.find("pg-secret-value") == std::string::npos);
    const auto record = json::parse(heard->data);
    BOOST_TEST(record.at("path").as_string() == box + "/api/v1/products/1");
    BOOST_TEST(record.at("query").as_string() == "trace=a");
    BOOST_TEST(record.at("headers").at("x-api-key").as_string() == "[redacted]");
    BOOST_TEST(record.at("status").as_int64() == 200);

    BOOST_TEST_REQUIRE(get(port_b, box + "/api/v1/categories/1").status == 200u);
    const auto own = on_b.next_event(3s);  // B's own request reaches its stream the same way
    BOOST_TEST_REQUIRE(own.has_value());
    BOOST_TEST(json::parse(own->data).at("path").as_string() == box + "/api/v1/categories/1");
    BOOST_TEST(eventually([&] { return listed(port_a).size() == 2u; }, 3s));
    const auto on_a = listed(port_a);
    BOOST_TEST_REQUIRE(on_a.size() == 2u);
    BOOST_TEST(on_a[0].at("path").as_string() == box + "/api/v1/categories/1");  // newest first
    BOOST_TEST(on_a[1].at("path").as_string() == box + "/api/v1/products/1");
    BOOST_TEST(listed(port_b) == on_a);

    BOOST_TEST(send_request(port_a, {.method = "DELETE", .target = box + "/requests"}).status == 204u);
    BOOST_TEST(listed(port_b).empty());
    BOOST_TEST_REQUIRE(get(port_a, box + "/api/v1/products/2").status == 200u);
    const auto after_clear = on_b.next_event(3s);
    BOOST_TEST_REQUIRE(after_clear.has_value(), "B's stream heard nothing after the DELETE");
    BOOST_TEST(json::parse(after_clear->data).at("path").as_string() == box + "/api/v1/products/2");

    BOOST_TEST_REQUIRE(get(port_a, "/sandbox/pg-other/api/v1/products/1").status == 200u);
    BOOST_TEST(!on_b.next_event(500ms).has_value());
    BOOST_TEST(eventually([&] { return listed(port_b).size() == 1u; }, 3s));

    // Bounded: after 1,020 more requests each instance lists the newest 1,000.
    on_b.close();
    for (int i = 0; i < 1020; ++i) {
        BOOST_TEST_REQUIRE(
            get(i % 2 ? port_a : port_b, box + "/api/v1/products/1?n=" + std::to_string(i)).status == 200u
        );
    }
    // (Records of two instances are stored as each finishes, so the newest few may swap places.)
    const auto holds = [](const json::array& all, const std::string& query) {
        return std::any_of(all.begin(), all.end(), [&](const json::value& r) {
            return r.at("query").as_string() == query;
        });
    };
    BOOST_TEST(eventually([&] { return holds(listed(port_b), "n=1019"); }, 5s));
    const auto kept = listed(port_a);
    BOOST_TEST(kept.size() == 1000u);
    BOOST_TEST(!holds(kept, ""));  // products/2, the oldest, is gone
    BOOST_TEST(holds(kept, "n=100"));
}

// A sandbox that only reads is never removed, so its records in the database go once they are older than
// --sandbox-ttl (any id may be named: they would otherwise grow without bound); the sandbox records again.
BOOST_AUTO_TEST_CASE(an_idle_sandboxs_records_leave_the_database_after_the_sandbox_ttl) {
    if (!std::getenv("TEST_PG_DSN")) {
        BOOST_TEST_MESSAGE("skipped: TEST_PG_DSN unset (ctest runs this as server_tests_pg)");
        return;
    }
    child_process server(instance_args(create_test_database(), {"--storage-pool", "2", "--sandbox-ttl", "2s"})
    );
    const auto port = server.wait_listening(60s);
    const std::string box = "/sandbox/pg-idle-reader";
    const auto listed = [&] {
        const auto reply = get(port, box + "/requests");
        BOOST_TEST_REQUIRE(reply.status == 200u, reply.body);
        return reply.json().as_array().size();
    };
    BOOST_TEST_REQUIRE(get(port, box + "/api/v1/products/1").status == 200u);
    BOOST_TEST_REQUIRE(eventually([&] { return listed() == 1u; }, 3s));
    BOOST_TEST(eventually([&] { return listed() == 0u; }, 8s), "the idle sandbox's records stayed");
    BOOST_TEST_REQUIRE(get(port, box + "/api/v1/products/2").status == 200u);
    BOOST_TEST(eventually([&] { return listed() == 1u; }, 3s));
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace inspector_e2e_file
