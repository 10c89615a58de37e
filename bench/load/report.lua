-- wrk script for fixed paths: prints one machine-readable RESULT line when the run ends.
done = function(summary, latency, requests)
    local e = summary.errors
    io.write(string.format(
        "RESULT requests=%d bytes=%d duration_us=%d p50_us=%d p99_us=%d non2xx=%d socket_errors=%d\n",
        summary.requests, summary.bytes, summary.duration,
        latency:percentile(50), latency:percentile(99),
        e.status, e.connect + e.read + e.write + e.timeout))
end
