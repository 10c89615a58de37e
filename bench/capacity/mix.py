#!/usr/bin/env python3
"""Writes the tsung scenario of the capacity run: the request mix of issue 46 goal 5 at fixed arrival rates.

The mix is data (MIX below): each session kind is one visitor's short visit, with its group, its share of
all *requests* in percent and its requests. Tsung starts visitors at a fixed (Poisson) arrival rate per
phase whatever the answers' latency, so a slow answer never delays the next arrivals (open loop: no
coordinated omission). Each phase gets its own copy of the sessions, with every request tagged
"p<phase>.<route>", so the dump (dumptraffic="protocol") tells per request which phase's arrival it was
and which route it asked: report.py computes p50/p99 per route per phase from that, exactly.

usage: mix.py --rates 50,50,100 --phase-seconds 25 [--warmup-seconds 5] --port 8080 --data DIR --max-product N --max-category N
              --max-user N --xml OUT.xml --phases OUT.tsv
Rates are target requests per second; visitors per second = rate / (requests per visit on average).
"""
import argparse
from xml.sax.saxutils import quoteattr

AUTH = '<http_header name="Authorization" value="Bearer %%_token%%"/>'
JSON = 'content_type="application/json"'
SHIPPING = ('{"shippingAddress":{"name":"Load Test","line1":"1 Main St","city":"Springfield",'
            '"postalCode":"12345","country":"US"}}')
CARD = '{"card":{"number":"4242424242424242","expMonth":12,"expYear":2030,"cvc":"123"}}'
NEW_PRODUCT = ('{"title":"Capacity %%_rnd%%","price":12.5,"description":"capacity run","categoryId":1,'
               '"images":["https://placehold.co/600x400"]}')


def rnd(name, start, end):
    return f'<setdynvars sourcetype="random_number" start="{start}" end="{end}"><var name="{name}"/></setdynvars>'


def from_file(fileid, order, *names):
    vars_ = "".join(f'<var name="{n}"/>' for n in names)
    return f'<setdynvars sourcetype="file" fileid="{fileid}" delimiter=";" order="{order}">{vars_}</setdynvars>'


def get(route, url):
    return (route, f'<http url={quoteattr(url)} method="GET"/>', "")


def send(route, method, url, body, headers="", capture=""):
    return (route, f'<http url={quoteattr(url)} method="{method}" contents={quoteattr(body)} {JSON}>{headers}</http>',
            capture)


def mix(ids):
    """(group, session, percent of requests, setup elements, [(route, http element, dyn_variable)])"""
    p, c, u = ids["product"], ids["category"], ids["user"]
    return [
        ("browse", "products_page", 35, [rnd("off", 0, max(0, p - 10))],
         [get("products_page", "/api/v1/products?offset=%%_off%%&limit=10")]),
        ("browse", "categories", 10, [], [get("categories", "/api/v1/categories")]),
        ("browse", "category_products", 10, [rnd("cid", 1, c)],
         [get("category_products", "/api/v1/categories/%%_cid%%/products?offset=0&limit=10")]),
        ("browse", "related", 5, [rnd("pid", 1, p)], [get("related", "/api/v1/products/%%_pid%%/related")]),
        ("items", "product", 10, [rnd("pid", 1, p)], [get("product", "/api/v1/products/%%_pid%%")]),
        ("items", "category", 3, [rnd("cid", 1, c)], [get("category", "/api/v1/categories/%%_cid%%")]),
        ("items", "user", 2, [rnd("uid", 1, u)], [get("user", "/api/v1/users/%%_uid%%")]),
        ("filters", "filter", 6, [from_file("filters", "random", "fq")], [get("filter", "/api/v1/products?%%_fq%%")]),
        ("filters", "search", 4, [from_file("search", "random", "sq")], [get("search", "/api/v1/products?%%_sq%%")]),
        ("login", "login", 3, [from_file("buyers", "random", "email", "password", "token")],
         [send("login", "POST", "/api/v1/auth/login", '{"email":"%%_email%%","password":"%%_password%%"}')]),
        # Buyers in turn (iter): at the rates measured here a buyer's previous checkout is long finished.
        ("checkout", "checkout", 8, [from_file("buyers", "iter", "email", "password", "token"),
                                     from_file("stock", "random", "stock_id")],
         [send("cart_add", "POST", "/api/v1/cart/items", '{"productId":%%_stock_id%%,"quantity":1}', AUTH),
          send("order", "POST", "/api/v1/orders", SHIPPING, AUTH, '<dyn_variable name="order_id" jsonpath="id"/>'),
          send("pay", "POST", "/api/v1/orders/%%_order_id%%/payments", CARD, AUTH)]),
        ("sandbox_writes", "sandbox_writes", 4,
         [from_file("sandboxes", "random", "sb"), '<setdynvars sourcetype="random_string" length="12"><var name="rnd"/></setdynvars>'],
         [send("sb_create", "POST", "/sandbox/%%_sb%%/api/v1/products", NEW_PRODUCT, "",
               '<dyn_variable name="new_id" jsonpath="id"/>'),
          send("sb_update", "PUT", "/sandbox/%%_sb%%/api/v1/products/%%_new_id%%", '{"price":13}'),
          send("sb_delete", "DELETE", "/sandbox/%%_sb%%/api/v1/products/%%_new_id%%", "")]),
    ]


def requests_per_visit(kinds):
    """Mean requests per visitor when visits are drawn with weight share / len(requests)."""
    weights = [share / len(reqs) for _, _, share, _, reqs in kinds]
    return sum(share for _, _, share, _, _ in kinds) / sum(weights)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rates", required=True)
    ap.add_argument("--phase-seconds", type=int, default=25)
    ap.add_argument("--warmup-seconds", type=int, default=0)
    ap.add_argument("--port", type=int, required=True)
    ap.add_argument("--data", required=True)
    ap.add_argument("--max-product", type=int, required=True)
    ap.add_argument("--max-category", type=int, required=True)
    ap.add_argument("--max-user", type=int, required=True)
    ap.add_argument("--xml", required=True)
    ap.add_argument("--phases", required=True)
    args = ap.parse_args()
    rates = [float(r) for r in args.rates.split(",") if r]
    kinds = mix({"product": args.max_product, "category": args.max_category, "user": args.max_user})
    assert sum(k[2] for k in kinds) == 100, "the mix's shares must add up to 100 %"
    per_visit = requests_per_visit(kinds)

    out = ['<?xml version="1.0"?>', '<!DOCTYPE tsung SYSTEM "/usr/share/tsung/tsung-1.0.dtd">',
           "<!-- generated by bench/capacity/mix.py: edit the mix there -->",
           '<tsung loglevel="notice" dumptraffic="protocol" version="1.0">',
           '<clients><client host="localhost" use_controller_vm="true" maxusers="15000"/></clients>',
           f'<servers><server host="127.0.0.1" port="{args.port}" type="tcp"/></servers>', "<load>"]
    phases = ["phase\ttarget_rps\tvisitors_per_s\tseconds"]
    # With a warm-up, the first rate is phase 0 (reported by nobody); the measured phases are 1, 2, ...
    first = 0 if args.warmup_seconds > 0 else 1
    for n, rate in enumerate(rates, first):
        seconds = args.warmup_seconds if n == 0 else args.phase_seconds
        # Tsung takes whole arrivals per unit: per minute keeps a fraction of a visitor per second.
        per_minute = max(1, round(rate / per_visit * 60))
        out.append(f'<arrivalphase phase="{n - first + 1}" duration="{seconds}" unit="second">')
        for _, name, share, _, reqs in kinds:
            # session_setup weights: visits of a kind in proportion to its share of requests per request.
            out.append(f'  <session_setup name="p{n}_{name}" weight="{share * 1000 // len(reqs)}"/>')
        out.append(f'  <users arrivalrate="{per_minute}" unit="minute"/></arrivalphase>')
        phases.append(f"{n}\t{rate:g}\t{per_minute / 60:.3f}\t{seconds}")
    out.append("</load>")
    out.append("<options>")
    for fileid in ("buyers", "stock", "sandboxes", "filters", "search"):
        out.append(f'<option name="file_server" id="{fileid}" value="{args.data}/{fileid}.csv"/>')
    out.append("</options>")
    out.append("<sessions>")
    # Weight 0 outside their own phase: tsung gives a session missing from a phase's session_setup its own
    # weight there, so any other weight would let a few visits of one phase run in another.
    for n in range(first, first + len(rates)):
        for _, name, _, setup, reqs in kinds:
            out.append(f'<session name="p{n}_{name}" weight="0" type="ts_http">')
            out.extend("  " + s for s in setup)
            for route, http, capture in reqs:
                out.append(f'  <request subst="true" tag="p{n}.{route}">{capture}{http}</request>')
            out.append("</session>")
    out.append("</sessions></tsung>")
    with open(args.xml, "w") as f:
        f.write("\n".join(out) + "\n")
    with open(args.phases, "w") as f:
        f.write("\n".join(phases) + "\n")


if __name__ == "__main__":
    main()
