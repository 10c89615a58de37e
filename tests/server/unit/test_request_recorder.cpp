// The request inspector's records without sockets: every kind of secret redacted (headers, query, JSON
// and form bodies, card numbers, tokens in answers), bodies cut at 4 KiB (text whole characters, binary
// as base64) with the flag, the ring's bound and order, clearing, followers and their overflow, and the
// bounded table of logs; logs shared through a database (two instances on one event log): each lists and
// follows what the other recorded, a clear and a drop reach both, and each sandbox keeps its last 1,000.

#include <algorithm>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>

#include "server/services/request_recorder.hpp"

using namespace storefront::server;
namespace json = boost::json;

namespace {

request_record record_of(std::string path, unsigned status = 200) {
    request_record r;
    r.method = "GET";
    r.path = std::move(path);
    r.status = status;
    return r;
}

// The change feed's log as one PostgreSQL database holds it for every instance, in memory: each instance's
// view is one fake_shared_log on the same state, and an append tells every view's subscriber at once.
struct shared_state {
    std::mutex mutex;
    std::map<std::string, std::vector<storefront::storage::stored_event>, std::less<>> sets;
    std::map<std::string, std::uint64_t, std::less<>> counters;
    std::vector<std::function<void(std::optional<std::string_view>)>> subscribers;
};

class fake_shared_log final : public storefront::storage::event_log {
  public:
    explicit fake_shared_log(std::shared_ptr<shared_state> state) : state_(std::move(state)) {}

    storefront::storage::stored_event append(
        std::string_view data_set,
        std::string_view type,
        std::string_view data,
        std::optional<std::int64_t> owner,
        std::int64_t at_ms
    ) override {
        storefront::storage::stored_event e{0, std::string(type), std::string(data), owner, at_ms};
        std::vector<std::function<void(std::optional<std::string_view>)>> tell;
        {
            std::lock_guard lock(state_->mutex);
            e.id = ++state_->counters[std::string(data_set)];
            state_->sets[std::string(data_set)].push_back(e);
            tell = state_->subscribers;
        }
        for (const auto& heard : tell) {  // after the commit, outside the lock
            heard(data_set);
        }
        return e;
    }

    std::vector<storefront::storage::stored_event> after(
        std::string_view data_set, std::uint64_t after, std::size_t limit
    ) const override {
        std::lock_guard lock(state_->mutex);
        std::vector<storefront::storage::stored_event> out;
        if (const auto found = state_->sets.find(data_set); found != state_->sets.end()) {
            for (const auto& e : found->second) {
                if (e.id > after) {
                    out.push_back(e);
                }
            }
        }
        if (out.size() > limit) {
            out.erase(out.begin(), out.end() - static_cast<std::ptrdiff_t>(limit));
        }
        return out;
    }

    void on_append(std::function<void(std::optional<std::string_view>)> heard) override {
        std::lock_guard lock(state_->mutex);
        state_->subscribers.push_back(std::move(heard));
    }

    void trim(std::string_view data_set, std::size_t keep) override {
        std::lock_guard lock(state_->mutex);
        if (keep == 0) {
            state_->sets.erase(std::string(data_set));
            state_->counters.erase(std::string(data_set));
            return;
        }
        auto& events = state_->sets[std::string(data_set)];
        if (events.size() > keep) {
            events.erase(events.begin(), events.end() - static_cast<std::ptrdiff_t>(keep));
        }
    }

    void forget_idle(std::string_view prefix, std::int64_t idle_before_ms) override {
        std::lock_guard lock(state_->mutex);
        for (auto it = state_->sets.begin(); it != state_->sets.end();) {
            if (it->first.starts_with(prefix) && !it->second.empty() &&
                it->second.back().at_ms < idle_before_ms) {
                state_->counters.erase(it->first);
                it = state_->sets.erase(it);
            } else {
                ++it;
            }
        }
    }

  private:
    std::shared_ptr<shared_state> state_;
};

std::vector<std::string> paths_in(const std::string& json_array) {
    std::vector<std::string> out;
    const auto parsed = json::parse(json_array);
    for (const auto& r : parsed.as_array()) {
        out.emplace_back(r.at("path").as_string());
    }
    return out;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(request_recorder)

BOOST_AUTO_TEST_CASE(secret_headers_are_redacted_whatever_their_case) {
    const auto headers = record_headers(
        {{"Authorization", "Bearer abc.def"},
         {"cookie", "sf_access=zzz"},
         {"Set-Cookie", "sf_refresh=yyy; HttpOnly"},
         {"API_KEY", "special-key"},
         {"Accept", "application/json"}}
    );
    for (const auto& [name, value] : headers) {
        if (name == "Accept") {
            BOOST_TEST(value == "application/json");
        } else {
            BOOST_TEST(value == redacted_value, name);
        }
    }
    request_record r = record_of("/sandbox/abcd/api/v1/products");
    r.headers = headers;
    const std::string text = record_json(r);
    for (const char* secret : {"abc.def", "zzz", "yyy", "special-key"}) {
        BOOST_TEST(text.find(secret) == std::string::npos, secret);
    }
}

BOOST_AUTO_TEST_CASE(secret_query_parameters_are_redacted) {
    BOOST_TEST(redact_query("api_key=special-key&limit=5") == "api_key=[redacted]&limit=5");
    BOOST_TEST(redact_query("a=1&password=hunter2") == "a=1&password=[redacted]");
    BOOST_TEST(redact_query("api%5Fkey=k") == "api%5Fkey=[redacted]");  // as the receiver decodes it
    BOOST_TEST(redact_query("limit=5&offset") == "limit=5&offset");
    BOOST_TEST(redact_query("") == "");
}

BOOST_AUTO_TEST_CASE(password_fields_of_json_bodies_are_redacted_at_any_depth) {
    const auto b = record_body(
        R"({"email":"a@b.c","password":"hunter2","nested":{"newPassword":"s3cret!"},"list":[{"passwordConfirm":"x9"}]})",
        "application/json"
    );
    BOOST_TEST(b.text.find("hunter2") == std::string::npos);
    BOOST_TEST(b.text.find("s3cret!") == std::string::npos);
    BOOST_TEST(b.text.find("x9") == std::string::npos);
    const auto v = json::parse(b.text);
    BOOST_TEST(v.at("email").as_string() == "a@b.c");
    BOOST_TEST(v.at("password").as_string() == redacted_value);
    BOOST_TEST(!b.truncated);
    BOOST_TEST(!b.base64);
}

BOOST_AUTO_TEST_CASE(card_number_and_cvc_are_redacted) {
    const auto b = record_body(
        R"({"method":"card","card":{"number":"4242424242424242","cvc":"123","expMonth":12,"expYear":2030}})",
        "application/json; charset=utf-8"
    );
    BOOST_TEST(b.text.find("4242424242424242") == std::string::npos);
    BOOST_TEST(b.text.find("\"123\"") == std::string::npos);
    const auto v = json::parse(b.text);
    BOOST_TEST(v.at("card").at("expYear").as_int64() == 2030);  // not a secret
    // A "number" outside a card is not one either.
    const auto other = record_body(R"({"number":7})", "application/json");
    BOOST_TEST(other.text == R"({"number":7})");
}

BOOST_AUTO_TEST_CASE(tokens_in_answers_are_redacted) {
    const auto b = record_body(R"({"access_token":"eyJ.a.b","refresh_token":"eyJ.c.d"})", "application/json");
    BOOST_TEST(b.text.find("eyJ") == std::string::npos);
}

BOOST_AUTO_TEST_CASE(json_without_secrets_is_kept_as_sent) {
    const std::string sent = "{ \"price\": 4.30,  \"title\":\"x\" }";
    BOOST_TEST(record_body(sent, "application/json").text == sent);
}

BOOST_AUTO_TEST_CASE(json_that_does_not_parse_is_withheld_when_it_names_a_secret) {
    const auto b = record_body(R"({"password":"hunter2",)", "application/json");
    BOOST_TEST(b.text.find("hunter2") == std::string::npos);
    BOOST_TEST(record_body("{oops", "application/json").text == "{oops");
    // Too large to parse for redaction (over 256 KiB) and naming a secret field: withheld too.
    const std::string large = R"({"pad":")" + std::string(300 * 1024, 'p') + R"(","password":"hunter2"})";
    const auto withheld = record_body(large, "application/json");
    BOOST_TEST(withheld.text.find("hunter2") == std::string::npos);
    BOOST_TEST(withheld.size == large.size());
}

BOOST_AUTO_TEST_CASE(password_fields_of_form_bodies_are_redacted) {
    const auto b = record_body("username=ann&password=hunter2&x=1", "application/x-www-form-urlencoded");
    BOOST_TEST(b.text == "username=ann&password=[redacted]&x=1");
    const auto multipart = record_body(
        "--b\r\nContent-Disposition: form-data; name=\"password\"\r\n\r\nhunter2\r\n--b--",
        "multipart/form-data; boundary=b"
    );
    BOOST_TEST(multipart.text.find("hunter2") == std::string::npos);
}

BOOST_AUTO_TEST_CASE(bodies_are_cut_at_4_kib_with_a_flag) {
    const std::string big(5000, 'a');
    const auto text = record_body(big, "text/plain");
    BOOST_TEST(text.text.size() == recorded_body_limit);
    BOOST_TEST(text.truncated);
    BOOST_TEST(text.size == 5000u);
    BOOST_TEST(!record_body(std::string(4096, 'a'), "text/plain").truncated);
    // A multi-byte character is not split by the cut.
    const std::string accents = std::string(4095, 'a') + "é";
    const auto cut = record_body(accents, "text/plain");
    BOOST_TEST(cut.text == std::string(4095, 'a'));
    BOOST_TEST(cut.truncated);
}

BOOST_AUTO_TEST_CASE(binary_bodies_are_base64) {
    const auto small = record_body(std::string("\x89PNG\xff", 5), "image/png");
    BOOST_TEST(small.base64);
    BOOST_TEST(small.text == "iVBOR/8=");
    BOOST_TEST(!small.truncated);
    const auto big = record_body(std::string(5000, '\xff'), "application/octet-stream");
    BOOST_TEST(big.base64);
    BOOST_TEST(big.truncated);
    BOOST_TEST(big.text.size() == (recorded_body_limit + 2) / 3 * 4);
}

BOOST_AUTO_TEST_CASE(the_log_keeps_the_newest_records_newest_first) {
    request_log log(3);
    for (int i = 1; i <= 5; ++i) {
        log.add(record_of("/p" + std::to_string(i)));
    }
    BOOST_TEST(log.size() == 3u);
    const auto all = json::parse(log.newest_json(10)).as_array();
    BOOST_TEST_REQUIRE(all.size() == 3u);
    BOOST_TEST(all[0].at("path").as_string() == "/p5");
    BOOST_TEST(all[2].at("path").as_string() == "/p3");
    BOOST_TEST(json::parse(log.newest_json(1)).as_array().size() == 1u);
    log.clear();
    BOOST_TEST(log.newest_json(10) == "[]");
}

BOOST_AUTO_TEST_CASE(followers_get_new_records_and_overflow_alone) {
    request_log log(10, 2);
    int wakes = 0;
    auto fast = log.follow([&] { ++wakes; });
    auto slow = log.follow([] {});
    log.add(record_of("/a"));
    auto got = fast->take();
    BOOST_TEST_REQUIRE(got.records.size() == 1u);
    BOOST_TEST(json::parse(*got.records[0]).at("path").as_string() == "/a");
    BOOST_TEST(wakes == 1);
    log.add(record_of("/b"));
    log.add(record_of("/c"));  // the slow one holds /a and /b: no room for /c
    BOOST_TEST(fast->take().records.size() == 2u);
    const auto behind = slow->take();
    BOOST_TEST(behind.overflowed);
    BOOST_TEST(behind.records.size() == 2u);
    log.add(record_of("/d"));
    const auto kept_up = fast->take();
    BOOST_TEST(!kept_up.overflowed);
    BOOST_TEST(kept_up.records.size() == 1u);
    log.close_followers();
    BOOST_TEST(fast->take().closed);
}

BOOST_AUTO_TEST_CASE(logs_per_sandbox_are_separate_bounded_and_dropped) {
    request_logs logs(2);
    logs.add("one", record_of("/1"));
    logs.add("two", record_of("/2"));
    BOOST_TEST(logs.of("one")->size() == 1u);
    BOOST_TEST(json::parse(logs.of("two")->newest_json(5)).as_array()[0].at("path").as_string() == "/2");
    auto follower = logs.of("two")->follow([] {});
    logs.drop("two");
    BOOST_TEST(follower->take().closed);
    BOOST_TEST(logs.of("two")->size() == 0u);
    logs.add("three", record_of("/3"));  // the log used longest ago ("one") goes
    BOOST_TEST(logs.log_count() == 2u);
    BOOST_TEST(logs.of("one")->size() == 0u);
}

BOOST_AUTO_TEST_CASE(shared_logs_list_and_follow_what_any_instance_recorded) {
    const auto database = std::make_shared<shared_state>();
    request_logs a;
    request_logs b;
    BOOST_TEST(!a.shared());
    a.share_through(std::make_unique<fake_shared_log>(database));
    b.share_through(std::make_unique<fake_shared_log>(database));
    BOOST_TEST(a.shared());
    a.add("box", record_of("/before-the-stream"));
    const auto followed = b.followed_log("box");
    const auto follower = followed->follow([] {});
    a.add("box", record_of("/from-a"));
    b.add("box", record_of("/from-b"));
    a.add("other", record_of("/elsewhere"));
    const auto heard = follower->take();
    std::vector<std::string> heard_paths;
    for (const auto& r : heard.records) {
        heard_paths.emplace_back(json::parse(*r).at("path").as_string());
    }
    BOOST_TEST(heard_paths == (std::vector<std::string>{"/from-a", "/from-b"}));
    const std::vector<std::string> newest_first = {"/from-b", "/from-a", "/before-the-stream"};
    BOOST_TEST(paths_in(a.newest_json("box", 10)) == newest_first);
    BOOST_TEST(paths_in(b.newest_json("box", 10)) == newest_first);
    BOOST_TEST(paths_in(b.newest_json("box", 1)) == std::vector<std::string>{"/from-b"});
    BOOST_TEST(b.newest_json("nothing-here", 10) == "[]");

    // A clear through A empties both lists; B's stream goes on with what comes next (ids start again).
    a.clear("box");
    BOOST_TEST(b.newest_json("box", 10) == "[]");
    a.add("box", record_of("/after-the-clear"));
    const auto next = follower->take();
    BOOST_TEST_REQUIRE(next.records.size() == 1u);
    BOOST_TEST(json::parse(*next.records[0]).at("path").as_string() == "/after-the-clear");

    // Bounded: the newest 1,000 listed, a few more kept at most until the next trim.
    followed->unfollow(follower);
    for (int i = 0; i < 1100; ++i) {
        (i % 2 ? a : b).add("box", record_of("/n" + std::to_string(i)));
    }
    const auto listed = paths_in(b.newest_json("box", 1000));
    BOOST_TEST(listed.size() == 1000u);
    BOOST_TEST(listed.front() == "/n1099");
    BOOST_TEST(listed.back() == "/n100");
    BOOST_TEST(database->sets.at(shared_data_set("box")).size() < 1016u);

    // The sandbox removed: its records go for every instance.
    a.drop("box");
    BOOST_TEST(b.newest_json("box", 10) == "[]");
    BOOST_TEST(paths_in(b.newest_json("other", 10)) == std::vector<std::string>{"/elsewhere"});
}

BOOST_AUTO_TEST_CASE(shared_records_of_an_idle_sandbox_are_forgotten_and_a_recent_one_stays) {
    const auto database = std::make_shared<shared_state>();
    request_logs logs;
    logs.forget_idle_shared(1'000);  // not shared: nothing to do
    logs.share_through(std::make_unique<fake_shared_log>(database));
    const auto at = [](std::string path, std::int64_t at_ms) {
        request_record r = record_of(std::move(path));
        r.at_ms = at_ms;
        return r;
    };
    logs.add("read-only-box", at("/old", 1'000));
    logs.add("busy-box", at("/old", 1'000));
    logs.add("busy-box", at("/recent", 5'000));
    database->sets["not-requests"].push_back({1, "product.created", "{}", std::nullopt, 1'000});
    logs.forget_idle_shared(4'000);
    BOOST_TEST(logs.newest_json("read-only-box", 10) == "[]");
    BOOST_TEST(!database->counters.contains(shared_data_set("read-only-box")));
    BOOST_TEST(paths_in(logs.newest_json("busy-box", 10)) == (std::vector<std::string>{"/recent", "/old"}));
    BOOST_TEST(database->sets.contains("not-requests"));  // another prefix: the change feed's own
}

BOOST_AUTO_TEST_SUITE_END()
