-- wrk script: POST /graphql asking for a products page with every field the REST page has. Arguments:
--   page         limit 10, offset 0 every time (what a client's first screen asks, again and again);
--   cycle LAST   offsets 0, 1, …, LAST, 0, … (each request the next page start), as pages.lua does for REST;
--   fresh LAST   the same offsets, each document new (a numbered alias): no answer or document cache helps,
--                every request is parsed, validated and executed (the worst case a client can send).
-- Prints report.lua's RESULT line.
local fields = "id title slug price description category { id name slug image creationAt updatedAt } " ..
    "images creationAt updatedAt"
local mode, last
local offset = 0

local sent = 0

local function body(at)
    local alias = ""
    if mode == "fresh" then
        sent = sent + 1
        alias = "p" .. sent .. ": "
    end
    return '{"query":"{ ' .. alias .. 'products(limit: 10, offset: ' .. at .. ') { ' .. fields .. ' } }"}'
end

init = function(args)
    mode = args[1] or "page"
    last = tonumber(args[2] or "0")
end

request = function()
    local at = 0
    if mode ~= "page" then
        at = offset
        offset = offset + 1
        if offset > last then
            offset = 0
        end
    end
    return wrk.format("POST", "/graphql", { ["Content-Type"] = "application/json" }, body(at))
end

done = function(summary, latency, requests)
    local e = summary.errors
    io.write(string.format(
        "RESULT requests=%d bytes=%d duration_us=%d p50_us=%d p99_us=%d non2xx=%d socket_errors=%d\n",
        summary.requests, summary.bytes, summary.duration,
        latency:percentile(50), latency:percentile(99),
        e.status, e.connect + e.read + e.write + e.timeout))
end
