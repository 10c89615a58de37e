// Writes a deterministic location CSV (id,name,description,latitude,longitude) for the load benchmark:
// `count` points uniformly distributed on the sphere, from a fixed-seed SplitMix64 stream.
// Usage: gen_locations COUNT OUTPUT.csv

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <numbers>

namespace {

std::uint64_t splitmix64(std::uint64_t& state) {
    std::uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

// Uniform in [0, 1) with 53 random bits.
double unit(std::uint64_t& state) {
    return static_cast<double>(splitmix64(state) >> 11) * 0x1.0p-53;
}

}  // namespace

int main(int argc, char* argv[]) {
    if (argc != 3) {
        std::fprintf(stderr, "usage: %s COUNT OUTPUT.csv\n", argv[0]);
        return 2;
    }
    const long long count = std::atoll(argv[1]);
    std::FILE* out = std::fopen(argv[2], "w");
    if (count <= 0 || out == nullptr) {
        std::fprintf(stderr, "bad count or cannot open %s\n", argv[2]);
        return 2;
    }
    std::uint64_t state = 20240401;
    std::fputs("id,name,description,latitude,longitude\n", out);
    for (long long id = 1; id <= count; ++id) {
        // Equal-area: latitude from asin of a uniform z, longitude uniform.
        const double latitude = std::asin(2 * unit(state) - 1) * 180 / std::numbers::pi;
        const double longitude = unit(state) * 360 - 180;
        std::fprintf(
            out, "%lld,Point %lld,Benchmark point number %lld,%.6f,%.6f\n", id, id, id, latitude, longitude
        );
    }
    return std::fclose(out) == 0 ? 0 : 1;
}
