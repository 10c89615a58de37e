-- wrk script: one durable write per request, every body unique (a run tag, the wrk thread and a counter),
-- so no request fails as a duplicate. Arguments: the kind, then a run tag. Kinds:
--   product  POST /api/v1/products, with the bearer token from the environment variable BENCH_TOKEN (kept
--            out of the command line);
--   churn    the same, and each created product is deleted by a later request (DELETE /api/v1/products/ID),
--            so a writer running for long keeps the catalogue at its size;
--   user     POST /api/v1/users, a registration.
-- Counts 2xx answers itself: only those are writes.
local threads = {}
local next_id = 1

setup = function(thread)
    thread:set("tid", next_id)
    next_id = next_id + 1
    threads[#threads + 1] = thread
end

local kind, tag, headers
local counter = 0
local pending = {}  -- churn: ids created and not yet deleted
created = 0

init = function(args)
    kind = args[1]
    tag = args[2] .. "-" .. tid
    headers = { ["Content-Type"] = "application/json" }
    local token = os.getenv("BENCH_TOKEN")
    if token and token ~= "" then
        headers["Authorization"] = "Bearer " .. token
    end
end

request = function()
    counter = counter + 1
    local unique = tag .. "-" .. counter
    if kind == "churn" and #pending > 0 then
        return wrk.format("DELETE", "/api/v1/products/" .. table.remove(pending), headers)
    end
    if kind == "product" or kind == "churn" then
        return wrk.format("POST", "/api/v1/products", headers, string.format(
            '{"title":"Bench %s","price":12.5,"description":"A benchmark product","categoryId":1,' ..
            '"images":["https://placehold.co/600x400"]}', unique))
    end
    return wrk.format("POST", "/api/v1/users", headers, string.format(
        '{"name":"Bench","email":"bench-%s@example.com","password":"secret123",' ..
        '"avatar":"https://placehold.co/200"}', unique))
end

response = function(status, headers, body)
    if status >= 200 and status < 300 then
        created = created + 1
        if kind == "churn" and status == 201 then
            local id = body:match('^{"id":(%d+)')
            if id then pending[#pending + 1] = id end
        end
    end
end

done = function(summary, latency, requests)
    local ok = 0
    for _, t in ipairs(threads) do
        ok = ok + (t:get("created") or 0)
    end
    local e = summary.errors
    io.write(string.format(
        "RESULT requests=%d bytes=%d duration_us=%d p50_us=%d p99_us=%d non2xx=%d socket_errors=%d created=%d\n",
        summary.requests, summary.bytes, summary.duration,
        latency:percentile(50), latency:percentile(99),
        summary.requests - ok, e.connect + e.read + e.write + e.timeout, ok))
end
