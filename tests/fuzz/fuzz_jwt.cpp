// libFuzzer harness: bytes as a bearer token for every verifier, and as a JWT header/claims object.

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "core/auth_tokens.hpp"
#include "core/flat_json.hpp"
#include "core/jwt.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace storefront::core;
    static const auth_tokens tokens({"fuzz-access-secret-0123456789", "fuzz-refresh-secret-0123456789"});
    static const jwt_codec codec("fuzz-access-secret-0123456789");
    const std::string_view token(reinterpret_cast<const char*>(data), size);
    constexpr std::int64_t now = 1'800'000'000;
    (void)tokens.verify_access(token, now);
    (void)tokens.verify_refresh(token, now);
    (void)codec.verify(token, now, {"access", store_audience});
    (void)parse_flat_json(token);
    return 0;
}
