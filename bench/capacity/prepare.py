#!/usr/bin/env python3
"""Prepares the data the capacity mix needs, through the public API of a running storefront (the cluster's
HAProxy), and writes the tsung data files into OUT_DIR:

  buyers.csv     email;password;access token   registered users (POST /users) logged in once (POST /auth/login);
                                               the checkout sessions take them in turn, the login sessions at random
  stock.csv      product id                    products created with a stock of 1,000,000 (the most a product may
                                               have), so checkouts never run out
  sandboxes.csv  sandbox id                    sandboxes from POST /api/v1/sandboxes, each written once so it has
                                               its own stores (a PostgreSQL schema), then once on every instance
                                               (--instances) so each has them open before the run
  filters.csv    query string                  title word + price range + category, from the catalogue's titles
  search.csv     query string                  q= two words of one title
  ids.env        shell assignments             MAX_PRODUCT_ID, MAX_CATEGORY_ID, MAX_USER_ID for the item routes

Everything is seeded (--seed), so two runs on a fresh database ask the same questions.
usage: prepare.py BASE_URL OUT_DIR [--users N] [--products N] [--sandboxes N] [--seed S] [--instances URL,...]
"""
import argparse
import concurrent.futures
import json
import random
import re
import sys
import urllib.error
import urllib.parse
import urllib.request

TIMEOUT_SECONDS = 30


def call(base, method, path, body=None, token=None):
    """One request; returns (status, parsed JSON or None). Never raises on an HTTP error status."""
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(base + path, data=data, method=method)
    if body is not None:
        req.add_header("Content-Type", "application/json")
    if token:
        req.add_header("Authorization", "Bearer " + token)
    try:
        with urllib.request.urlopen(req, timeout=TIMEOUT_SECONDS) as resp:
            raw = resp.read()
            return resp.status, (json.loads(raw) if raw else None)
    except urllib.error.HTTPError as err:
        return err.code, None


def expect(status, wanted, what):
    if status not in wanted:
        sys.exit(f"prepare: {what} answered {status}")


def make_buyer(base, i):
    email = f"capacity-{i}@example.com"
    password = f"Capacity{i}pw"
    status, user = call(
        base, "POST", "/api/v1/users",
        {"name": f"Buyer {i}", "email": email, "password": password, "avatar": "https://placehold.co/200"},
    )
    expect(status, (201,), f"POST /users for {email}")
    status, tokens = call(base, "POST", "/api/v1/auth/login", {"email": email, "password": password})
    expect(status, (200, 201), f"login of {email}")
    return user["id"], f"{email};{password};{tokens['access_token']}"


def make_stock_product(base, i):
    status, product = call(
        base, "POST", "/api/v1/products",
        {"title": f"Capacity stock {i}", "price": 10 + i % 40, "description": "Bought by the capacity run",
         "categoryId": 1 + i % 5, "images": ["https://placehold.co/600x400"], "stock": 1000000},
    )
    expect(status, (201,), "POST /products")
    return product["id"]


def write_in_sandbox(base, sid, title):
    status, product = call(
        base, "POST", f"/sandbox/{sid}/api/v1/products",
        {"title": title, "price": 1, "description": "warm-up write", "categoryId": 1,
         "images": ["https://placehold.co/600x400"]},
    )
    expect(status, (201,), f"a warm-up write in sandbox {sid}")
    status, _ = call(base, "DELETE", f"/sandbox/{sid}/api/v1/products/{product['id']}")
    expect(status, (200,), f"a warm-up delete in sandbox {sid}")


def make_sandbox(base, instances):
    status, sandbox = call(base, "POST", "/api/v1/sandboxes")
    expect(status, (201,), "POST /sandboxes")
    sid = sandbox["id"]
    # The first write gives the sandbox stores of its own (a schema on PostgreSQL), and each instance opens
    # them on its first request there: done here, so the run measures writes in open sandboxes (the steady
    # state of a shop whose sandboxes are in use), not their creation.
    write_in_sandbox(base, sid, "Warm up")
    for i, instance in enumerate(instances):
        write_in_sandbox(instance, sid, f"Warm up {i}")
    return sid


def words_of(title):
    return [w for w in re.findall(r"[A-Za-z]+", title) if len(w) >= 4]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("base")
    ap.add_argument("out")
    ap.add_argument("--users", type=int, default=200)
    ap.add_argument("--products", type=int, default=20)
    ap.add_argument("--sandboxes", type=int, default=6)
    ap.add_argument("--seed", type=int, default=46)
    ap.add_argument("--workers", type=int, default=6)
    ap.add_argument("--instances", default="", help="comma-separated base URLs of the instances themselves")
    args = ap.parse_args()
    instances = [u for u in args.instances.split(",") if u]
    rng = random.Random(args.seed)

    # Registration and login each cost an Argon2id hash: a few at a time, as the server's hash pool allows.
    with concurrent.futures.ThreadPoolExecutor(args.workers) as pool:
        buyers = list(pool.map(lambda i: make_buyer(args.base, i), range(1, args.users + 1)))
        stock = list(pool.map(lambda i: make_stock_product(args.base, i), range(1, args.products + 1)))
        sandboxes = list(pool.map(lambda _: make_sandbox(args.base, instances), range(args.sandboxes)))

    status, catalogue = call(args.base, "GET", "/api/v1/products?offset=0&limit=100")
    expect(status, (200,), "GET /products")
    seed_products = [p for p in catalogue if p["id"] not in set(stock)]
    status, categories = call(args.base, "GET", "/api/v1/categories")
    expect(status, (200,), "GET /categories")

    filters = []
    for _ in range(200):
        p = rng.choice(seed_products)
        word = rng.choice(words_of(p["title"]) or ["a"]).lower()
        low = max(0, int(p["price"]) - rng.randint(0, 50))
        filters.append(
            f"title={word}&price_min={low}&price_max={low + rng.randint(20, 200)}"
            f"&categoryId={p['category']['id']}"
        )
    searches = []
    for _ in range(200):
        words = words_of(rng.choice(seed_products)["title"]) or ["shirt"]
        picked = rng.sample(words, min(2, len(words)))
        searches.append("q=" + urllib.parse.quote(" ".join(picked).lower()))

    def write(name, rows):
        with open(f"{args.out}/{name}", "w") as f:
            f.write("\n".join(str(r) for r in rows) + "\n")

    write("buyers.csv", [line for _, line in buyers])
    write("stock.csv", stock)
    write("sandboxes.csv", sandboxes)
    write("filters.csv", filters)
    write("search.csv", searches)
    # Item routes ask for ids that exist: the seed's products (not the stock ones), every category, every user.
    write("ids.env", [
        f"MAX_PRODUCT_ID={max(p['id'] for p in seed_products)}",
        f"MAX_CATEGORY_ID={max(c['id'] for c in categories)}",
        f"MAX_USER_ID={max(uid for uid, _ in buyers)}",
    ])
    print(f"prepare: {len(buyers)} buyers, {len(stock)} stock products, {len(sandboxes)} sandboxes")


if __name__ == "__main__":
    main()
