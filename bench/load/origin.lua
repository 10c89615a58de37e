-- wrk script: GET <base path>?origin=<lat,lng>&radius=<km>&size=5 with a random origin per request,
-- drawn from the ORIGINS file (one "lat,lng" per line). Arguments: base path, origins file, radius km.
local origins = {}
local base, radius

init = function(args)
    base = args[1]
    radius = args[3]
    for line in io.lines(args[2]) do
        origins[#origins + 1] = line
    end
    math.randomseed(os.time() + tonumber(tostring({}):sub(8), 16) % 100000)
end

request = function()
    local o = origins[math.random(#origins)]
    return wrk.format(nil, base .. "?origin=" .. o .. "&radius=" .. radius .. "&size=5")
end

done = function(summary, latency, requests)
    local e = summary.errors
    io.write(string.format(
        "RESULT requests=%d bytes=%d duration_us=%d p50_us=%d p99_us=%d non2xx=%d socket_errors=%d\n",
        summary.requests, summary.bytes, summary.duration,
        latency:percentile(50), latency:percentile(99),
        e.status, e.connect + e.read + e.write + e.timeout))
end
