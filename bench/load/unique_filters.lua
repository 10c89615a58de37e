-- wrk script: GET /api/v1/products?title=<a title no product has>&<more filters>, the title different on
-- every request (the wrk thread and a counter), so every request misses the answer cache and asks the
-- store's indexes. Arguments: the other filters, e.g. "&price_min=10&price_max=500&categoryId=1", and the
-- title's prefix (default "zq"; a warm-up run takes another, so the measured run's titles are new to it).
local tid_next = 1
setup = function(thread)
    thread:set("tid", tid_next)
    tid_next = tid_next + 1
end

local counter = 0
local rest = ""
local prefix = "zq"

init = function(args)
    rest = args[1] or ""
    prefix = args[2] or prefix
end

request = function()
    counter = counter + 1
    return wrk.format(nil, "/api/v1/products?title=" .. prefix .. tid .. "x" .. counter .. rest)
end

done = function(summary, latency, requests)
    local e = summary.errors
    io.write(string.format(
        "RESULT requests=%d bytes=%d duration_us=%d p50_us=%d p99_us=%d non2xx=%d socket_errors=%d\n",
        summary.requests, summary.bytes, summary.duration,
        latency:percentile(50), latency:percentile(99),
        e.status, e.connect + e.read + e.write + e.timeout))
end
