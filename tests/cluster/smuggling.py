#!/usr/bin/env python3
"""Request smuggling through HAProxy in front of storefront, over raw sockets.

usage: smuggling.py HOST PORT

Each case sends, on one fresh connection, a request R1 with ambiguous or malformed framing, followed by a
well-formed GET pipelined behind it (`Connection: close`). Every request carries a marker in its path under
/smuggle/<case>/..., and storefront answers an unknown path with 404 "Cannot <METHOD> <path>", so each answer
names the request it belongs to. Bytes that would only form a request under a wrong reading of the framing
carry the marker `smuggled`.

A case passes when
  - R1 is refused with 400 (by HAProxy or storefront) and nothing but the pipelined GET is answered after it,
    or R1 is answered as RFC 9112 reads it, followed by the requests RFC 9112 sees behind it, in order
    (where RFC 9112 requires the connection to be closed after R1, nothing after R1);
  - no answer names a request that exists only under a wrong reading (`smuggled`), nor comes out of order;
  - the connection ends (closed) within a bound, and
  - afterwards two requests on a new connection (the second may reuse a server connection HAProxy keeps)
    are each answered as sent, so nothing was left behind on a connection to an instance.
Prints one line per case with its outcome; exits 1 when any case fails.
"""

import socket
import sys
import time

READ_BOUND = 5.0  # seconds a case may take to be answered and closed


def crlf(lines):
    return "".join(line + "\r\n" for line in lines).encode()


def follower(case):
    return crlf([f"GET /smuggle/{case}/next HTTP/1.1", "Host: storefront", "Connection: close", ""])


def chunk(data):
    return f"{len(data):x}\r\n".encode() + data + b"\r\n"


def smuggled(case):
    return f"GET /smuggle/{case}/smuggled HTTP/1.1\r\nHost: storefront\r\n\r\n".encode()


class Case:
    """One attack: the bytes of R1, what RFC 9112 reads in it and whether it must be refused.

    rfc: the requests RFC 9112 sees in R1's bytes, as (METHOD, marker) pairs, or None when R1 is invalid
    and must be refused with 400. close: RFC 9112 requires the connection to be closed after answering R1.
    """

    def __init__(self, name, head, body=b"", rfc=None, close=False, note=""):
        self.name = name
        self.raw = head + body
        self.rfc = rfc
        self.close = close
        self.note = note


def post_head(case, *fields, version="HTTP/1.1", target=None, eol="\r\n"):
    target = target or f"/smuggle/{case}/first"
    lines = [f"POST {target} {version}", "Host: storefront", *fields, ""]
    return "".join(line + eol for line in lines).encode()


def build_cases():
    cases = []

    def add(name, head_fields, body, rfc, close=False, note="", **kw):
        first = [("POST", "first")] if rfc == "first" else rfc
        cases.append(Case(name, post_head(name, *head_fields, **kw), body, first, close, note))

    # A chunked body whose only chunk holds a request: read as chunked (RFC) it is data; read by a
    # Content-Length of 4 the request after the first 4 bytes would be a request of its own.
    inner = chunk(smuggled("x")) + b"0\r\n\r\n"

    def te_cl(name):
        s = smuggled(name)
        return chunk(s) + b"0\r\n\r\n"

    # Content-Length with Transfer-Encoding: Transfer-Encoding wins, the connection closes after (RFC 9112 6.1).
    add("cl-te", ["Content-Length: 4", "Transfer-Encoding: chunked"], te_cl("cl-te"), "first", close=True,
        note="TE.CL: the Content-Length reading would see a request in the chunk")
    s = smuggled("cl-te-long")
    add("cl-te-long", [f"Content-Length: {5 + len(s)}", "Transfer-Encoding: chunked"], b"0\r\n\r\n" + s,
        [("POST", "first"), ("GET", "smuggled")], close=True,
        note="CL.TE: the chunked reading ends the body early; the rest is a request only RFC-wise, and the "
        "connection must close before it")
    add("te-cl", ["Transfer-Encoding: chunked", "Content-Length: 4"], te_cl("te-cl"), "first", close=True)

    # Obfuscated Transfer-Encoding: valid spellings are read as chunked, invalid ones refused.
    add("te-chunked-identity", ["Transfer-Encoding: chunked, identity", "Content-Length: 4"],
        te_cl("te-chunked-identity"), None, note="chunked not the final coding of a request: 400")
    add("te-identity-chunked", ["Transfer-Encoding: identity, chunked"], te_cl("te-identity-chunked"), None,
        note="identity is no registered coding any more (RFC 9112): 400 or 501")
    add("te-leading-space", ["Transfer-Encoding:  chunked", "Content-Length: 4"], te_cl("te-leading-space"),
        "first", close=True, note="extra OWS is still chunked")
    add("te-tab", ["Transfer-Encoding:\tchunked", "Content-Length: 4"], te_cl("te-tab"), "first", close=True)
    add("te-upper", ["Transfer-Encoding: CHUNKED", "Content-Length: 4"], te_cl("te-upper"), "first",
        close=True, note="coding names are case-insensitive")
    add("te-space-before-colon", ["Transfer-Encoding : chunked", "Content-Length: 4"],
        te_cl("te-space-before-colon"), None, note="whitespace before the colon: MUST be 400 (RFC 9112 5.1)")
    add("te-vtab", ["Transfer-Encoding:\x0bchunked", "Content-Length: 4"], te_cl("te-vtab"), None)
    add("te-repeated", ["Transfer-Encoding: chunked", "Transfer-Encoding: chunked"], te_cl("te-repeated"),
        None, note="chunked applied twice: 400")
    add("te-chunked-then-identity", ["Transfer-Encoding: chunked", "Transfer-Encoding: identity",
        "Content-Length: 4"], te_cl("te-chunked-then-identity"), None)
    add("te-xchunked", ["Transfer-Encoding: xchunked", "Content-Length: 4"], te_cl("te-xchunked"), None,
        note="unknown coding (501 is allowed too)")
    add("te-http10", ["Transfer-Encoding: chunked"], te_cl("te-http10"), "first", close=True,
        version="HTTP/1.0", note="Transfer-Encoding in HTTP/1.0: faulty framing, close after (RFC 9112 6.1)")
    add("te-only-chunked", ["Transfer-Encoding: chunked"], te_cl("te-only-chunked"), "first",
        note="control: a plain chunked request, kept alive")

    # Content-Length variants.
    body5 = b"hello"
    add("cl-duplicate-same", ["Content-Length: 5", "Content-Length: 5"], body5, "first",
        note="identical duplicates may be merged (RFC 9110 8.6) or refused")
    add("cl-list-same", ["Content-Length: 5, 5"], body5, "first")
    s = smuggled("cl-conflict")
    add("cl-conflict", ["Content-Length: 0", f"Content-Length: {len(s)}"], s, None)
    s = smuggled("cl-conflict-list")
    add("cl-conflict-list", [f"Content-Length: 0, {len(s)}"], s, None)
    add("cl-plus", ["Content-Length: +5"], body5, None)
    add("cl-hex", ["Content-Length: 0x5"], body5, None)
    s = smuggled("cl-overflow")
    add("cl-overflow", ["Content-Length: 18446744073709551616"], s, None, note="2^64: must not wrap to 0")
    add("control-cl", ["Content-Length: 5"], body5, "first", note="control: a plain Content-Length request")

    # obs-fold: refused, or the fold replaced by a space (then it is no Transfer-Encoding field of its own).
    s = smuggled("obs-fold-te")
    body = b"0\r\n\r\n" + s
    add("obs-fold-te", [f"Content-Length: {len(body)}", "X-Note: a", " Transfer-Encoding: chunked"], body,
        "first", note="folded into X-Note, it is no Transfer-Encoding: the body is all Content-Length bytes")
    add("obs-fold-te-value", ["Content-Length: 4", "Transfer-Encoding:", " chunked"],
        te_cl("obs-fold-te-value"), "first", close=True, note="a folded value: still chunked with CL present")

    # Bare CR and LF line ends.
    s = smuggled("bare-cr-te")
    body = b"0\r\n\r\n" + s
    add("bare-cr-te", [f"Content-Length: {len(body)}", "X-Note: a\rTransfer-Encoding: chunked"], body, "first",
        note="a bare CR is invalid or a space, never a line end")
    add("bare-lf-head", ["Content-Length: 5"], body5, "first", eol="\n",
        note="a bare LF may end a line of the head (RFC 9112 2.2)")
    s = smuggled("bare-lf-te")
    body = b"0\r\n\r\n" + s
    cases.append(Case("bare-lf-te", post_head("bare-lf-te", f"Content-Length: {len(body)}")[:-2]
                      + b"X-Note: a\nTransfer-Encoding: chunked\r\n\r\n" + body, b"",
                      None, note="if the LF ends a line, CL and TE together: 400 or chunked with close"))
    cases[-1].rfc_alternatives = [([("POST", "first"), ("GET", "smuggled")], True)]

    # Chunk lines.
    add("chunk-ext", ["Transfer-Encoding: chunked"], b"5;name=value;q=\"a b\"\r\nhello\r\n0;x\r\n\r\n", "first",
        note="chunk extensions are ignored")
    s = smuggled("chunk-ext-lf")
    body = b"2;\n" + b"xx\r\n" + chunk(s) + b"0\r\n\r\n"
    add("chunk-ext-lf", ["Transfer-Encoding: chunked"], body, None,
        note="a bare LF inside a chunk extension (TERM.EXT): refused")
    cases[-1].rfc_alternatives = [([("POST", "first")], False)]
    s = smuggled("chunk-size-overflow")
    body = b"10000000000000005\r\nhello\r\n" + s + b"\r\n0\r\n\r\n"
    add("chunk-size-overflow", ["Transfer-Encoding: chunked"], body, None,
        note="2^64+5: must not wrap to 5")
    add("chunk-size-0x", ["Transfer-Encoding: chunked"], b"0x5\r\nhello\r\n0\r\n\r\n", None)
    add("chunk-size-space", ["Transfer-Encoding: chunked"], b" 5\r\nhello\r\n0\r\n\r\n", None)
    s = smuggled("chunk-data-overrun")
    body = b"3\r\nhello\r\n0\r\n\r\n" + s
    add("chunk-data-overrun", ["Transfer-Encoding: chunked"], body, None,
        note="chunk longer than its size: no CRLF after the data")
    add("chunk-trailer", ["Transfer-Encoding: chunked"], b"5\r\nhello\r\n0\r\nX-Trailer: t\r\n\r\n", "first",
        note="a trailer section is read and the body ends after it")

    # Absolute-form targets: the path comes from the target, the authority replaces Host.
    add("absolute-form", ["Content-Length: 5"], body5, "first", target="http://storefront/smuggle/absolute-form/first")
    add("absolute-form-other-host", ["Content-Length: 5"], body5, "first",
        target="http://elsewhere.example/smuggle/absolute-form-other-host/first")
    cases[-1].raw = cases[-1].raw  # Host: storefront differs from the target's authority: target wins
    s = smuggled("absolute-form-space")
    cases.append(Case("absolute-form-space", crlf([
        "GET http://storefront/smuggle/absolute-form-space/first HTTP/1.1 /smuggle/absolute-form-space/smuggled",
        "Host: storefront", ""]), b"", None, note="a request line with extra words: 400"))
    del inner
    return cases


class Answer:
    def __init__(self, status, headers, body):
        self.status = status
        self.headers = headers
        self.body = body

    def marker(self):
        text = self.body.decode("latin-1")
        i = text.find("/smuggle/")
        if i < 0:
            return None
        rest = text[i + len("/smuggle/"):].split('"')[0].split()[0]
        parts = rest.split("/")
        method = text[:i].rstrip().split()[-1] if text[:i].rstrip() else "?"
        return (method, parts[-1] if len(parts) > 1 else rest)

    def __repr__(self):
        return f"{self.status} {self.body[:90].decode('latin-1')!r}"


class Reader:
    """Answers parsed off a socket: status line, fields, body by Content-Length or chunked."""

    def __init__(self, sock, deadline):
        self.sock = sock
        self.buf = b""
        self.deadline = deadline
        self.closed = False

    def fill(self):
        remaining = self.deadline - time.monotonic()
        if remaining <= 0:
            raise TimeoutError
        self.sock.settimeout(remaining)
        try:
            data = self.sock.recv(65536)
        except socket.timeout:
            raise TimeoutError from None
        except ConnectionResetError:
            data = b""
        if not data:
            self.closed = True
            raise EOFError
        self.buf += data

    def line(self):
        while b"\r\n" not in self.buf:
            self.fill()
        line, self.buf = self.buf.split(b"\r\n", 1)
        return line

    def take(self, n):
        while len(self.buf) < n:
            self.fill()
        data, self.buf = self.buf[:n], self.buf[n:]
        return data

    def answer(self):
        status_line = self.line()
        status = int(status_line.split()[1])
        headers = {}
        while True:
            line = self.line()
            if not line:
                break
            name, _, value = line.partition(b":")
            headers.setdefault(name.strip().lower().decode(), []).append(value.strip().decode("latin-1"))
        if "transfer-encoding" in headers:
            body = b""
            while True:
                size = int(self.line().split(b";")[0], 16)
                if size == 0:
                    while self.line():
                        pass
                    break
                body += self.take(size)
                self.line()
        elif "content-length" in headers:
            body = self.take(int(headers["content-length"][0]))
        else:
            body = b""
            try:
                while True:
                    self.fill()
            except EOFError:
                pass
            body, self.buf = self.buf, b""
        return Answer(status, headers, body)


def exchange(host, port, payload):
    """Sends payload, returns (answers, how the connection ended: closed, timeout or garbage)."""
    sock = socket.create_connection((host, port), timeout=READ_BOUND)
    answers = []
    end = "closed"
    try:
        sock.sendall(payload)
        reader = Reader(sock, time.monotonic() + READ_BOUND)
        while True:
            try:
                answers.append(reader.answer())
            except EOFError:
                if reader.buf.strip():
                    end = f"closed with unparsed bytes {reader.buf[:60]!r}"
                break
            except TimeoutError:
                end = "timeout"
                break
            except (ValueError, IndexError):
                end = f"unparseable answer bytes {reader.buf[:60]!r}"
                break
    finally:
        sock.close()
    return answers, end


def judge(case, answers, end):
    """None when the outcome is one RFC 9112 allows without desync, else the reason it is not."""
    got = [a.marker() for a in answers]
    for a, m in zip(answers, got):
        if m and m[1] == "smuggled" and not any(
                ("GET", "smuggled") in seq for seq in [case.rfc or []] + [s for s, _ in alternatives(case)]):
            return f"DESYNC: answered a request that exists only under a wrong reading: {a!r}"
    if end not in ("closed",):
        return f"connection did not end cleanly: {end}"
    if not answers:
        return "no answer at all"
    nxt = ("GET", "next")
    if answers[0].status == 400 or (answers[0].status == 501 and case.rfc is None):
        rest = got[1:]
        if rest not in ([], [nxt]):
            return f"after the refusal, answers {rest}"
        return None
    readings = []
    if case.rfc is not None:
        readings.append((case.rfc, case.close))
    readings += alternatives(case)
    if not readings:
        return f"must be refused with 400, got {answers[0]!r}"
    for seq, close in readings:
        expected = list(seq) if close else list(seq) + [nxt]
        n = len(seq)
        if got[:n] != list(seq):
            continue
        if any(a.status != 404 for a in answers[:n]):
            continue
        if close and len(got) > n:
            continue
        if got == expected or (got == list(seq) and n < len(expected)):
            return None
    return f"answers {[(a.status, m) for a, m in zip(answers, got)]} match no reading RFC 9112 allows " \
        f"(expected {case.rfc} then {'close' if case.close else 'the pipelined GET'})"


def alternatives(case):
    return getattr(case, "rfc_alternatives", [])


def victims_answered(host, port, name):
    """Two requests on one new connection, one after the other: each answered as sent."""
    sock = socket.create_connection((host, port), timeout=READ_BOUND)
    try:
        reader = Reader(sock, time.monotonic() + READ_BOUND)
        for i in (1, 2):
            sock.sendall(crlf([f"GET /smuggle/{name}/victim{i} HTTP/1.1", "Host: storefront", ""]))
            a = reader.answer()
            if a.status != 404 or a.marker() != ("GET", f"victim{i}"):
                return f"a later client's request {i} was answered with {a!r}"
    except (EOFError, TimeoutError) as e:
        return f"a later client got no answer ({type(e).__name__})"
    finally:
        sock.close()
    return None


def main():
    host, port = sys.argv[1], int(sys.argv[2])
    failures = 0
    cases = build_cases()
    for case in cases:
        answers, end = exchange(host, port, case.raw + follower(case.name))
        reason = judge(case, answers, end) or victims_answered(host, port, case.name)
        summary = ", ".join(
            f"{a.status}" + (f" {a.marker()[1]}" if a.marker() else "") for a in answers) or "no answer"
        verdict = "ok  " if reason is None else "FAIL"
        print(f"{verdict} {case.name:26} {summary}; {end}" + (f"  -- {reason}" if reason else ""))
        failures += reason is not None
    print(f"smuggling: {len(cases) - failures} of {len(cases)} cases passed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
