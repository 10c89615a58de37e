-- wrk script for bench/run_checkout.sh: every wrk thread is one buyer with its own user, bearer token and
-- connection (run it with -t equal to -c), buying in a loop: add one unit to the cart (POST /api/v1/cart/items)
-- → checkout (POST /api/v1/orders) → pay with 4242424242424242 (POST /api/v1/orders/{id}/payments). wrk
-- gives a response no connection, so one connection per thread is what lets a step follow its own buyer's
-- previous answer. Arguments: a file of tokens, one line per buyer, and a file of product ids, one line per
-- buyer (buyer N uses line N of each). A failed step (non-2xx) is counted and tried again.
local threads = {}
local next_id = 1

setup = function(thread)
    thread:set("tid", next_id)
    next_id = next_id + 1
    threads[#threads + 1] = thread
end

local function line_of(path, n)
    local i = 0
    for line in io.lines(path) do
        i = i + 1
        if i == n then return line end
    end
    error("no line " .. n .. " in " .. path)
end

local headers, product
local step = 1  -- 1 add to cart, 2 checkout, 3 pay
local order_id
checkouts = 0
failed = 0

init = function(args)
    headers = {
        ["Content-Type"] = "application/json",
        ["Authorization"] = "Bearer " .. line_of(args[1], tid),
    }
    product = line_of(args[2], tid)
end

local address = '{"shippingAddress":{"name":"Bench Buyer","line1":"1 Main St","city":"Springfield",' ..
    '"postalCode":"12345","country":"US"}}'
local card = '{"card":{"number":"4242424242424242","expMonth":12,"expYear":2040,"cvc":"123"}}'

request = function()
    if step == 1 then
        return wrk.format("POST", "/api/v1/cart/items", headers,
            '{"productId":' .. product .. ',"quantity":1}')
    elseif step == 2 then
        return wrk.format("POST", "/api/v1/orders", headers, address)
    end
    return wrk.format("POST", "/api/v1/orders/" .. order_id .. "/payments", headers, card)
end

response = function(status, _, body)
    if status ~= 201 then
        failed = failed + 1
        -- A checkout of an empty cart or a payment of an order that is no longer payable (a retried request
        -- whose first answer was lost with its connection) starts over; anything else tries the step again.
        if status == 409 then step = 1 end
        return
    end
    if step == 1 then
        step = 2
    elseif step == 2 then
        order_id = body:match('^{"id":(%d+)')
        step = order_id and 3 or 2
    else
        checkouts = checkouts + 1
        step = 1
    end
end

done = function(summary, latency, requests)
    local paid, bad = 0, 0
    for _, t in ipairs(threads) do
        paid = paid + (t:get("checkouts") or 0)
        bad = bad + (t:get("failed") or 0)
    end
    local e = summary.errors
    io.write(string.format(
        "RESULT requests=%d bytes=%d duration_us=%d p50_us=%d p99_us=%d non2xx=%d socket_errors=%d created=%d" ..
        " connect_errors=%d read_errors=%d write_errors=%d timeouts=%d\n",
        summary.requests, summary.bytes, summary.duration,
        latency:percentile(50), latency:percentile(99),
        bad, e.connect + e.read + e.write + e.timeout, paid, e.connect, e.read, e.write, e.timeout))
end
