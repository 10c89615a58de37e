#pragma once
// Precompiled header for core (issue 41, compile time): the standard headers most core files include,
// parsed once per build instead of once per file (about half of core's and storage's compile work).

#include <algorithm>
#include <array>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <boost/system/result.hpp>
