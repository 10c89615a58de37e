-- wrk script: GET /api/v1/products?offset=N&limit=10 with N = 0, 1, …, LAST, 0, … (argument LAST): the
-- REST side of graphql.lua's "cycle". Prints report.lua's RESULT line.
local last
local offset = 0

init = function(args)
    last = tonumber(args[1] or "0")
end

request = function()
    local at = offset
    offset = offset + 1
    if offset > last then
        offset = 0
    end
    return wrk.format("GET", "/api/v1/products?offset=" .. at .. "&limit=10")
end

done = function(summary, latency, requests)
    local e = summary.errors
    io.write(string.format(
        "RESULT requests=%d bytes=%d duration_us=%d p50_us=%d p99_us=%d non2xx=%d socket_errors=%d\n",
        summary.requests, summary.bytes, summary.duration,
        latency:percentile(50), latency:percentile(99),
        e.status, e.connect + e.read + e.write + e.timeout))
end
