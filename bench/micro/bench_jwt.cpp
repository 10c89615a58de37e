// HS256 token signing and verification (core::jwt_codec), as login/refresh and /auth/profile use them.

#include <benchmark/benchmark.h>

#include "core/jwt.hpp"

namespace {

using namespace storefront::core;

token_claims sample_claims() {
    token_claims c;
    c.subject = "1";
    c.type = "access";
    c.audience = "storefront-store";
    c.issued_at = 1'700'000'000;
    c.expires_at = 4'000'000'000;
    return c;
}

void BM_jwt_sign(benchmark::State& state) {
    const jwt_codec codec("benchmark-secret-0123456789abcdef");
    const token_claims claims = sample_claims();
    for (auto _ : state) {
        benchmark::DoNotOptimize(codec.sign(claims));
    }
}
BENCHMARK(BM_jwt_sign);

void BM_jwt_verify(benchmark::State& state) {
    const jwt_codec codec("benchmark-secret-0123456789abcdef");
    const std::string token = codec.sign(sample_claims());
    const token_expectation expected{"access", "storefront-store"};
    for (auto _ : state) {
        auto result = codec.verify(token, 1'700'000'100, expected);
        if (!result) {
            state.SkipWithError("token did not verify");
            break;
        }
        benchmark::DoNotOptimize(result);
    }
}
BENCHMARK(BM_jwt_verify);

}  // namespace
