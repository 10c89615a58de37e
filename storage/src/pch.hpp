#pragma once
// Precompiled header for storage (issue 41, compile time): the standard headers and the core model headers
// most adapters include, parsed once per build instead of once per file (about half of storage's compile
// work).

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/errc.hpp"
#include "core/model.hpp"
