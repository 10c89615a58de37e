-- wrk script for the cluster drills: GET requests cycling over several read paths (a cached list page, the
-- category list, one product, a product by slug, a category's products), each connection starting at another
-- place so every path is in flight at once.
local paths = {
    "/api/v1/products?offset=0&limit=10",
    "/api/v1/categories",
    "/api/v1/products/1",
    "/api/v1/categories/1/products?limit=5",
    "/api/v1/products?offset=10&limit=20",
}
local counter = 0

function setup(thread)
    counter = counter + 1
    thread:set("start", counter)
end

local i = nil
function request()
    if i == nil then
        i = start or 0
    end
    i = i % #paths + 1
    return wrk.format("GET", paths[i])
end
