// HMAC-SHA256 through OpenSSL's one-shot HMAC().

#include "core/hmac_sha256.hpp"

#include <stdexcept>

#include <openssl/evp.h>
#include <openssl/hmac.h>

namespace storefront::core {

sha256_digest hmac_sha256(std::string_view key, std::string_view data) {
    sha256_digest out{};
    unsigned int out_length = 0;
    const unsigned char* ok = HMAC(
        EVP_sha256(),
        key.data(),
        static_cast<int>(key.size()),
        reinterpret_cast<const unsigned char*>(data.data()),
        data.size(),
        out.data(),
        &out_length
    );
    if (ok == nullptr || out_length != sha256_length) {
        throw std::runtime_error("HMAC-SHA256 failed");
    }
    return out;
}

}  // namespace storefront::core
