// Tests for Idempotency-Key rules: header form, fingerprints and the replay / mismatch / conflict decision.
#include <boost/test/unit_test.hpp>

#include "core/idempotency.hpp"

using namespace storefront::core;

BOOST_AUTO_TEST_SUITE(idempotency)

BOOST_AUTO_TEST_CASE(keys) {
    BOOST_TEST((parse_idempotency_key("abc-123") == std::optional<std::string>("abc-123")));
    BOOST_TEST(
        (parse_idempotency_key("\"8e03978e-40d5-43e8\"") == std::optional<std::string>("8e03978e-40d5-43e8"))
    );
    BOOST_TEST(!parse_idempotency_key(""));
    BOOST_TEST(!parse_idempotency_key("a b"));
    BOOST_TEST(!parse_idempotency_key(std::string(256, 'k')));
    BOOST_TEST(parse_idempotency_key(std::string(255, 'k')).has_value());
}

BOOST_AUTO_TEST_CASE(fingerprints) {
    const auto a = request_fingerprint("POST", "/api/v1/orders", R"({"x":1})");
    BOOST_TEST(a.size() == 64u);
    BOOST_TEST(a == request_fingerprint("POST", "/api/v1/orders", R"({"x":1})"));
    BOOST_TEST(a != request_fingerprint("POST", "/api/v1/orders", R"({"x":2})"));
    BOOST_TEST(a != request_fingerprint("PUT", "/api/v1/orders", R"({"x":1})"));
    BOOST_TEST(request_fingerprint("POST", "/a", "b") != request_fingerprint("POST", "/ab", ""));
    // SHA-256 of the framed request (sha256sum of '4:POST14:/api/v1/orders7:{"x":1}').
    BOOST_TEST(a == "9999a858c4695ae7a4f6b6a606df7202a1dfb3fa846a95cd8d0917a749d28243");
}

BOOST_AUTO_TEST_CASE(decisions) {
    const timestamp_ms t0 = 1'000'000;
    idempotency_record r{"fp", true, 0, "", t0, t0};
    BOOST_TEST((decide_idempotency(std::nullopt, "fp", t0) == idempotency_decision::start));
    BOOST_TEST((decide_idempotency(r, "fp", t0 + 1) == idempotency_decision::in_progress));
    BOOST_TEST((decide_idempotency(r, "other", t0 + 1) == idempotency_decision::mismatch));
    BOOST_TEST((decide_idempotency(r, "fp", t0 + idempotency_stale_after_ms) == idempotency_decision::start));
    r.in_progress = false;
    r.status = 201;
    BOOST_TEST((decide_idempotency(r, "fp", t0 + 1) == idempotency_decision::replay));
    BOOST_TEST((decide_idempotency(r, "other", t0 + 1) == idempotency_decision::mismatch));
    BOOST_TEST(
        (decide_idempotency(r, "other", t0 + idempotency_key_lifetime_ms) == idempotency_decision::start)
    );
}

BOOST_AUTO_TEST_SUITE_END()
