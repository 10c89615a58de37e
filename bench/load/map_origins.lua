-- wrk script: each request asks about one of N pre-drawn origins, picked at random (ORIGINS file, one
-- "lat,lng" per line, drawn uniformly over latitude -60..60 and every longitude, oceans included).
-- storefront: PREFIX .. "lat,lng" .. SUFFIX; with a fourth argument "by-index", PREFIX .. i .. SUFFIX,
-- which is how nginx serves, as file i, the bytes storefront answered for origin i: both sides then
-- send the same bytes for the same draw. Arguments: PREFIX SUFFIX ORIGINS [by-index].
local origins = {}
local prefix, suffix, by_index

init = function(args)
    prefix, suffix = args[1], args[2]
    by_index = args[4] == "by-index"
    for line in io.lines(args[3]) do
        origins[#origins + 1] = line
    end
    math.randomseed(os.time() + tonumber(tostring({}):sub(8), 16) % 100000)
end

request = function()
    local i = math.random(#origins)
    local key = by_index and tostring(i) or origins[i]
    return wrk.format(nil, prefix .. key .. suffix)
end

done = function(summary, latency, requests)
    local e = summary.errors
    io.write(string.format(
        "RESULT requests=%d bytes=%d duration_us=%d p50_us=%d p99_us=%d non2xx=%d socket_errors=%d\n",
        summary.requests, summary.bytes, summary.duration,
        latency:percentile(50), latency:percentile(99),
        e.status, e.connect + e.read + e.write + e.timeout))
end
