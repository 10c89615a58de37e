// Compressed bodies decoded back with zlib and libbrotlidec.
#include "common/decompress.hpp"

#include <brotli/decode.h>
#include <cstdint>
#include <stdexcept>
#include <zlib.h>

namespace storefront::test {

std::string gunzip(const std::string& data) {
    z_stream stream{};
    if (inflateInit2(&stream, 15 + 16) != Z_OK) {  // gzip only, not zlib or raw deflate
        throw std::runtime_error("inflateInit2 failed");
    }
    stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
    stream.avail_in = static_cast<uInt>(data.size());
    std::string out;
    char buffer[16384];
    int status = Z_OK;
    while (status == Z_OK) {
        stream.next_out = reinterpret_cast<Bytef*>(buffer);
        stream.avail_out = sizeof buffer;
        status = inflate(&stream, Z_NO_FLUSH);
        out.append(buffer, sizeof buffer - stream.avail_out);
    }
    const bool all_read = stream.avail_in == 0;
    inflateEnd(&stream);
    if (status != Z_STREAM_END || !all_read) {
        throw std::runtime_error("not one complete gzip stream");
    }
    return out;
}

std::string unbrotli(const std::string& data, std::size_t expected_size) {
    std::string out(expected_size + 1, '\0');  // one spare byte: a longer output would not fit
    std::size_t size = out.size();
    const auto status = BrotliDecoderDecompress(
        data.size(),
        reinterpret_cast<const std::uint8_t*>(data.data()),
        &size,
        reinterpret_cast<std::uint8_t*>(out.data())
    );
    if (status != BROTLI_DECODER_RESULT_SUCCESS) {
        throw std::runtime_error("not one complete brotli stream");
    }
    out.resize(size);
    return out;
}

}  // namespace storefront::test
