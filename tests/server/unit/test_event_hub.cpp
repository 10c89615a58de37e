// The change feed's hub without sockets: type filters (families, unknown patterns), increasing ids and the
// bounded history, resuming with and without history, subscribers' bounded queues (overflow drops only the
// slow one), audiences, close_all, the stream limit, hubs per data set, and the WebSocket commands.

#include <string>
#include <variant>
#include <vector>

#include <boost/test/unit_test.hpp>

#include "server/services/event_hub.hpp"
#include "server/services/feed_commands.hpp"

using namespace storefront::server;

namespace {

event_filter filter_of(std::string_view list) {
    auto f = event_filter::parse(list);
    BOOST_REQUIRE(f.has_value());
    return *f;
}

std::vector<std::uint64_t> ids_of(const std::vector<event_ptr>& events) {
    std::vector<std::uint64_t> ids;
    for (const auto& e : events) {
        ids.push_back(e->id);
    }
    return ids;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(event_hub_rules)

BOOST_AUTO_TEST_CASE(filters_take_types_and_families_and_refuse_unknown_patterns) {
    const auto f = filter_of("product.*, category.updated");
    BOOST_TEST(f.matches("product.created"));
    BOOST_TEST(f.matches("product.deleted"));
    BOOST_TEST(f.matches("category.updated"));
    BOOST_TEST(!f.matches("category.created"));
    BOOST_TEST(!f.matches("user.created"));
    BOOST_TEST(filter_of("").matches("user.deleted"));  // no filter: every type
    BOOST_TEST(filter_of("order.*").matches("order.created"));
    for (const char* bad :
         {"product", "products.*", "product.exploded", "*", "user.*x", ".*", "product.*.x"}) {
        BOOST_TEST_CONTEXT(bad) {
            BOOST_TEST(!event_filter::parse(bad).has_value());
        }
    }
    const auto allowed = event_filter::allowed_patterns();
    BOOST_TEST(allowed.find("product.*") != std::string::npos);
    BOOST_TEST(allowed.find("category.updated") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(ids_increase_and_the_event_json_carries_type_id_data_and_time) {
    event_hub hub;
    auto s = hub.subscribe({}, {}, std::nullopt, {});
    hub.publish("product.created", R"({"id":51,"title":"Lamp"})");
    hub.publish("product.deleted", R"({"id":51})");
    BOOST_TEST(hub.last_id() == 2u);
    const auto events = s.subscription->take().events;
    BOOST_TEST(ids_of(events) == (std::vector<std::uint64_t>{1, 2}));
    const auto& first = events.at(0);
    BOOST_TEST(first->json.starts_with(
        R"({"type":"product.created","id":"1","data":{"id":51,"title":"Lamp"},"at":")"
    ));
    BOOST_TEST(first->json.ends_with("Z\"}"));
    BOOST_TEST(events.at(1)->type == "product.deleted");
}

BOOST_AUTO_TEST_CASE(a_subscriber_gets_what_its_filter_passes_and_is_woken) {
    event_hub hub;
    int wakes = 0;
    auto opened = hub.subscribe(filter_of("category.*"), {}, std::nullopt, [&] { ++wakes; });
    BOOST_TEST(!opened.reset);
    BOOST_TEST(opened.replay.empty());
    hub.publish("product.created", "{}");
    hub.publish("category.created", "{}");
    BOOST_TEST(wakes == 1);
    auto batch = opened.subscription->take();
    BOOST_TEST(ids_of(batch.events) == std::vector<std::uint64_t>{2});
    BOOST_TEST((batch.ending == event_subscription::end::none));
    BOOST_TEST(opened.subscription->take().events.empty());
    opened.subscription->refilter(filter_of("product.*"));
    hub.publish("product.updated", "{}");
    BOOST_TEST(ids_of(opened.subscription->take().events) == std::vector<std::uint64_t>{3});
    hub.unsubscribe(opened.subscription);
    hub.publish("product.updated", "{}");
    BOOST_TEST(opened.subscription->take().events.empty());
    BOOST_TEST(hub.subscriber_count() == 0u);
}

BOOST_AUTO_TEST_CASE(resume_replays_what_the_history_holds_and_resets_beyond_it) {
    event_hub hub({.history = 3, .queue = 10});
    for (int i = 0; i < 5; ++i) {
        hub.publish(i % 2 == 0 ? "product.created" : "user.created", "{}");
    }
    // History holds 3, 4, 5.
    auto from_two = hub.subscribe({}, {}, 2, {});
    BOOST_TEST(!from_two.reset);
    BOOST_TEST(ids_of(from_two.replay) == (std::vector<std::uint64_t>{3, 4, 5}));
    auto filtered = hub.subscribe(filter_of("product.*"), {}, 2, {});
    BOOST_TEST(ids_of(filtered.replay) == (std::vector<std::uint64_t>{3, 5}));
    auto up_to_date = hub.subscribe({}, {}, 5, {});
    BOOST_TEST(!up_to_date.reset);
    BOOST_TEST(up_to_date.replay.empty());
    auto too_old = hub.subscribe({}, {}, 1, {});  // 2 is gone
    BOOST_TEST(too_old.reset);
    BOOST_TEST(too_old.replay.empty());
    auto from_the_future = hub.subscribe({}, {}, 99, {});  // another process's numbering, or a restart
    BOOST_TEST(from_the_future.reset);
    event_hub fresh;
    BOOST_TEST(!fresh.subscribe({}, {}, 0, {}).reset);  // nothing happened yet: nothing missed
    BOOST_TEST(fresh.subscribe({}, {}, 1, {}).reset);
}

BOOST_AUTO_TEST_CASE(a_full_queue_ends_only_that_subscriber_with_overflow) {
    const auto before = event_feed_counters().overflow_closes.load();
    event_hub hub({.history = 100, .queue = 2});
    auto slow = hub.subscribe({}, {}, std::nullopt, {});
    auto quick = hub.subscribe({}, {}, std::nullopt, {});
    for (int i = 0; i < 3; ++i) {
        hub.publish("product.created", "{}");
        if (i < 2) {
            BOOST_TEST(quick.subscription->take().events.size() == 1u);
        }
    }
    auto slow_batch = slow.subscription->take();
    BOOST_TEST((slow_batch.ending == event_subscription::end::overflow));
    BOOST_TEST(slow_batch.events.empty());
    BOOST_TEST(hub.subscriber_count() == 1u);
    BOOST_TEST(event_feed_counters().overflow_closes.load() == before + 1);
    hub.publish("product.created", "{}");
    BOOST_TEST(ids_of(quick.subscription->take().events) == (std::vector<std::uint64_t>{3, 4}));
}

BOOST_AUTO_TEST_CASE(private_events_reach_only_their_owner_and_admins) {
    event_hub hub;
    auto owner = hub.subscribe({}, {.user = 7}, std::nullopt, {});
    auto other = hub.subscribe({}, {.user = 8}, std::nullopt, {});
    auto admin = hub.subscribe({}, {.user = 1, .admin = true}, std::nullopt, {});
    auto anonymous = hub.subscribe({}, {}, std::nullopt, {});
    hub.publish("order.created", R"({"id":3})", {.owner = 7});
    BOOST_TEST(owner.subscription->take().events.size() == 1u);
    BOOST_TEST(admin.subscription->take().events.size() == 1u);
    BOOST_TEST(other.subscription->take().events.empty());
    BOOST_TEST(anonymous.subscription->take().events.empty());
    BOOST_TEST(hub.subscribe({}, {.user = 8}, 0, {}).replay.empty());  // nor through the history
    BOOST_TEST(hub.subscribe({}, {.user = 7}, 0, {}).replay.size() == 1u);
}

BOOST_AUTO_TEST_CASE(close_all_ends_every_subscription_and_wakes_it) {
    event_hub hub;
    int wakes = 0;
    auto a = hub.subscribe({}, {}, std::nullopt, [&] { ++wakes; });
    auto b = hub.subscribe({}, {}, std::nullopt, [&] { ++wakes; });
    hub.close_all();
    BOOST_TEST(wakes == 2);
    BOOST_TEST((a.subscription->take().ending == event_subscription::end::closed));
    BOOST_TEST((b.subscription->take().ending == event_subscription::end::closed));
    BOOST_TEST(hub.subscriber_count() == 0u);
}

BOOST_AUTO_TEST_CASE(events_made_elsewhere_keep_their_ids_and_are_taken_once) {
    event_hub hub;
    auto s = hub.subscribe({}, {}, std::nullopt, {});
    auto made =
        std::make_shared<change_event>(change_event{.id = 40, .type = "product.created", .json = "{}"});
    hub.publish_made(made);
    hub.publish_made(made);  // heard twice: kept once
    BOOST_TEST(ids_of(s.subscription->take().events) == std::vector<std::uint64_t>{40});
    hub.publish("product.updated", "{}");
    BOOST_TEST(hub.last_id() == 41u);
}

BOOST_AUTO_TEST_CASE(the_stream_limit_refuses_beyond_its_bound_until_a_ticket_is_returned) {
    const auto open_before = event_feed_counters().subscribers.load();
    {
        auto first = event_stream_ticket::take(open_before + 2);
        auto second = event_stream_ticket::take(open_before + 2);
        BOOST_TEST(first.has_value());
        BOOST_TEST(second.has_value());
        BOOST_TEST(!event_stream_ticket::take(open_before + 2).has_value());
        BOOST_TEST(event_feed_counters().subscribers.load() == open_before + 2);
    }
    BOOST_TEST(event_feed_counters().subscribers.load() == open_before);
    BOOST_TEST(event_stream_ticket::take(open_before + 1).has_value());
}

BOOST_AUTO_TEST_CASE(each_data_set_has_its_own_hub_and_numbering) {
    event_hubs hubs;
    const auto shared = hubs.of("");
    const auto sandbox = hubs.of("box-1");
    BOOST_TEST(hubs.of("") == shared);
    BOOST_TEST(shared != sandbox);
    shared->publish("product.created", "{}");
    BOOST_TEST(sandbox->last_id() == 0u);
    auto s = sandbox->subscribe({}, {}, std::nullopt, {});
    hubs.drop("box-1");
    BOOST_TEST((s.subscription->take().ending == event_subscription::end::closed));
    BOOST_TEST(hubs.of("box-1") != sandbox);
}

BOOST_AUTO_TEST_CASE(hubs_nobody_holds_are_swept_as_the_table_grows) {
    event_hubs hubs;
    const auto held = hubs.of("held");
    held->publish("product.created", "{}");
    hubs.of("dropped")->publish("product.created", "{}");
    BOOST_TEST(hubs.of("dropped")->last_id() == 1u);  // kept until the table grows
    for (int i = 0; i < 1100; ++i) {                  // any sandbox id may be named
        (void)hubs.of("box-" + std::to_string(i));
    }
    BOOST_TEST(hubs.of("held") == held);
    BOOST_TEST(held->last_id() == 1u);
    BOOST_TEST(hubs.of("dropped")->last_id() == 0u);  // swept: a new numbering
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(feed_commands_parsing)

BOOST_AUTO_TEST_CASE(subscribe_and_resume_are_read_and_anything_else_refused_with_a_reason) {
    auto subscribe = parse_feed_command(R"({"subscribe":["product.*","category.updated"]})");
    BOOST_TEST_REQUIRE(std::holds_alternative<subscribe_command>(subscribe));
    const auto& filter = std::get<subscribe_command>(subscribe).filter;
    BOOST_TEST(filter.matches("product.deleted"));
    BOOST_TEST(!filter.matches("category.created"));
    auto everything = parse_feed_command(R"({"subscribe":[]})");
    BOOST_TEST_REQUIRE(std::holds_alternative<subscribe_command>(everything));
    BOOST_TEST(std::get<subscribe_command>(everything).filter.matches("user.created"));

    auto resume = parse_feed_command(R"({"resume":"42"})");
    BOOST_TEST_REQUIRE(std::holds_alternative<resume_command>(resume));
    BOOST_TEST(std::get<resume_command>(resume).last_seen == 42u);
    auto numeric = parse_feed_command(R"({"resume":7})");
    BOOST_TEST_REQUIRE(std::holds_alternative<resume_command>(numeric));
    BOOST_TEST(std::get<resume_command>(numeric).last_seen == 7u);

    for (const char* bad :
         {"",
          "not json",
          "[]",
          "{}",
          R"({"subscribe":"product.*"})",
          R"({"subscribe":[1]})",
          R"({"subscribe":["product.exploded"]})",
          R"({"resume":"-1"})",
          R"({"resume":"1x"})",
          R"({"resume":-3})",
          R"({"resume":1.5})",
          R"({"resume":"1","subscribe":[]})",
          R"({"unsubscribe":[]})",
          "[[[[[[[[[[[[[[["}) {
        BOOST_TEST_CONTEXT(bad) {
            const auto refused = parse_feed_command(bad);
            BOOST_TEST_REQUIRE(std::holds_alternative<refused_command>(refused));
            BOOST_TEST(!std::get<refused_command>(refused).message.empty());
        }
    }
    BOOST_TEST(feed_error_json("no \"way\"") == R"({"type":"error","message":"no \"way\""})");
}

BOOST_AUTO_TEST_SUITE_END()
