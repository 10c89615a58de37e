#!/usr/bin/env python3
"""Loads generated products into a seeded storefront store, for bench/run_filters.sh.

  load_products.py sqlite PATH N    rows straight into the SQLite file (the server stopped; its triggers
                                    keep the title index in step)
  load_products.py pg DSN N         rows through psql (the server stopped or restarted afterwards)
  load_products.py http PORT N      POST /api/v1/products N times on one keep-alive connection (memory)

The same N products for every backend (seeded random): "<adjective> <material> <noun> <n>", prices 1-1000,
categories 1-5. No title contains "zq", so bench/load/unique_filters.lua's titles match nothing.
"""
import http.client
import json
import random
import sqlite3
import subprocess
import sys

ADJECTIVES = ["Classic", "Modern", "Vintage", "Sleek", "Rustic", "Bold", "Soft", "Bright", "Smart", "Tiny"]
MATERIALS = ["Cotton", "Leather", "Wooden", "Steel", "Ceramic", "Denim", "Wool", "Glass", "Bamboo", "Silk"]
NOUNS = ["Shirt", "Mug", "Lamp", "Chair", "Sneakers", "Jacket", "Bowl", "Watch", "Backpack", "Hat"]


def products(n):
    rng = random.Random(21)
    for i in range(n):
        title = f"{rng.choice(ADJECTIVES)} {rng.choice(MATERIALS)} {rng.choice(NOUNS)} {i + 1}"
        yield title, round(rng.uniform(1, 1000), 2), rng.randint(1, 5)


def load_sqlite(path, n):
    db = sqlite3.connect(path)
    first = db.execute("SELECT coalesce(max(id), 0) + 1 FROM products").fetchone()[0]
    rows = [
        (first + i, title, f"bench-{first + i}", price, "Generated for the filter benchmark.", category)
        for i, (title, price, category) in enumerate(products(n))
    ]
    db.executemany(
        "INSERT INTO products (id, title, slug, price, description, category_id, created_at, updated_at) "
        "VALUES (?, ?, ?, ?, ?, ?, 0, 0)",
        rows,
    )
    db.commit()


def load_pg(dsn, n):
    lines = ["BEGIN;"]
    for i, (title, price, category) in enumerate(products(n)):
        lines.append(
            "INSERT INTO products (title, slug, price, description, category_id, images, created_at, updated_at)"
            f" VALUES ('{title}', 'bench-{i + 1}', {price}, 'Generated for the filter benchmark.', {category},"
            " ARRAY['https://placehold.co/600x400'], 0, 0);"
        )
    lines.append("COMMIT;")
    lines.append("ANALYZE products;")
    subprocess.run(["psql", "-q", "-v", "ON_ERROR_STOP=1", dsn], input="\n".join(lines), text=True, check=True)


def load_http(port, n):
    conn = http.client.HTTPConnection("127.0.0.1", int(port))
    for title, price, category in products(n):
        body = json.dumps({
            "title": title, "price": price, "description": "Generated for the filter benchmark.",
            "categoryId": category, "images": ["https://placehold.co/600x400"],
        })
        conn.request("POST", "/api/v1/products", body, {"Content-Type": "application/json"})
        reply = conn.getresponse()
        reply.read()
        if reply.status != 201:
            sys.exit(f"POST /api/v1/products answered {reply.status}")


if __name__ == "__main__":
    kind, where, count = sys.argv[1], sys.argv[2], int(sys.argv[3])
    {"sqlite": load_sqlite, "pg": load_pg, "http": load_http}[kind](where, count)
