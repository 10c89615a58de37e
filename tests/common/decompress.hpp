#pragma once
// Compressed response bodies decoded back as a client would (zlib, libbrotlidec), so tests can compare them
// with the identity bytes. Both throw std::runtime_error on anything but one complete stream.

#include <cstddef>
#include <string>

namespace storefront::test {

[[nodiscard]] std::string gunzip(const std::string& data);

// `expected_size` bounds the output: a stream that decodes to more does not fit and throws.
[[nodiscard]] std::string unbrotli(const std::string& data, std::size_t expected_size);

}  // namespace storefront::test
