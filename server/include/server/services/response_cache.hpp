#pragma once
// Moved to server/caches/response_cache.hpp; this forward stays only for bench/micro/bench_json.cpp, which
// this change does not touch. Include the caches header instead.

#include "server/caches/response_cache.hpp"
