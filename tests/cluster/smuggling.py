#!/usr/bin/env python3
"""Request smuggling through HAProxy in front of storefront, over raw sockets.

usage: smuggling.py HOST HTTP_PORT [HTTPS_PORT]     (with HTTPS_PORT every case runs over TLS too, HTTP/1.1)

Each case sends, on one fresh connection, a request R1 with ambiguous or malformed framing, followed by a
well-formed GET pipelined behind it (`Connection: close`). Every request carries a marker in its path under
/smuggle/<case>/..., and storefront answers an unknown path with 404 "Cannot <METHOD> <path>", so each answer
names the request it belongs to. Bytes that would only form a request under a wrong reading of the framing
carry the marker `smuggled`.

A case passes when
  - no answer names a request of another case, or bytes that are a request only under a wrong reading of the
    framing (`smuggled`; where RFC 9112 itself sees a request there, it requires the connection closed first);
  - R1 is refused with 400 (501 for an unknown coding) by HAProxy or storefront, or, where RFC 9112 allows,
    answered as what it is (404 "Cannot POST /smuggle/<case>/first") and, where RFC 9112 requires it (both
    Content-Length and Transfer-Encoding, Transfer-Encoding in HTTP/1.0), with nothing answered after it;
  - the pipelined GET is either answered as sent or not at all, and the connection ends (closed) within a
    bound;
  - afterwards two requests on a new connection (the second may go over a server connection HAProxy kept)
    are each answered as sent, so nothing was left behind on a connection to an instance.
Prints one line per case with its outcome; exits 1 when any case fails.
"""

import re
import socket
import ssl
import sys
import time

READ_BOUND = 5.0  # seconds a case may take to be answered and closed
# The request an answer belongs to; an absolute-form target may be echoed with its scheme and authority.
MARKER = re.compile(r'Cannot (\S+) (?:https?://[^/\s"]*)?/smuggle/([^/\s"]+)/([^\s"?]+)')
# A refusal: 400, or what HAProxy answers for a Transfer-Encoding it does not take (422) or an unknown coding
# (501, RFC 9112 6.1), always with the connection closed after it.
REFUSALS = (400, 422, 501)


def crlf(lines):
    return "".join(line + "\r\n" for line in lines).encode()


def follower(case):
    return crlf([f"GET /smuggle/{case}/next HTTP/1.1", "Host: storefront", "Connection: close", ""])


def chunk(data):
    return f"{len(data):x}\r\n".encode() + data + b"\r\n"


def smuggled(case):
    return f"GET /smuggle/{case}/smuggled HTTP/1.1\r\nHost: storefront\r\n\r\n".encode()


REFUSE, CLOSE, KEEP = "refuse", "close", "keep"


class Case:
    """One attack: R1's bytes and what RFC 9112 allows for them.

    allowed: REFUSE (R1 is invalid: only a 400, or 501 for an unknown coding, is right), CLOSE (R1 may also be
    read as RFC 9112 reads it, and then the connection must close: Content-Length with Transfer-Encoding, or
    Transfer-Encoding in HTTP/1.0) or KEEP (R1 is valid, or may be repaired as RFC 9112 says: read it, and the
    connection may go on). control: a well-formed request, which must not be refused.
    """

    def __init__(self, name, raw, allowed, note="", control=False):
        self.name = name
        self.raw = raw
        self.allowed = allowed
        self.note = note
        self.control = control


def post(case, *fields, version="HTTP/1.1", target=None, eol="\r\n"):
    """The head of R1: POST /smuggle/<case>/first with the given fields."""
    target = target or f"/smuggle/{case}/first"
    lines = [f"POST {target} {version}", "Host: storefront", *fields, ""]
    return "".join(line + eol for line in lines).encode()


def in_chunk(name):
    """A chunked body whose one chunk holds a request: data when read as chunked, a request of its own after
    the first 4 bytes when read by `Content-Length: 4`."""
    return chunk(smuggled(name)) + b"0\r\n\r\n"


def after_end(name):
    """A chunked body that ends at once, followed by a request: inside the body only when read by a
    Content-Length that covers it."""
    return b"0\r\n\r\n" + smuggled(name)


def build_cases():
    cases = []

    def add(name, fields, body, allowed, note="", control=False, **head):
        """R1 = POST /smuggle/<name>/first with fields; body is bytes or a function of the name; "{n}" in a
        field is the body's length."""
        body = body(name) if callable(body) else body
        fields = [f.replace("{n}", str(len(body))) for f in fields]
        cases.append(Case(name, post(name, *fields, **head) + body, allowed, note, control))

    te, cl4 = "Transfer-Encoding: chunked", "Content-Length: 4"
    # Content-Length together with Transfer-Encoding (RFC 9112 6.1, 6.3): chunked wins, close after.
    add("cl-te", [cl4, te], in_chunk, CLOSE, "TE.CL: read by Content-Length, the chunk would be a request")
    add("cl-te-long", ["Content-Length: {n}", te], after_end, CLOSE,
        "CL.TE: read as chunked the body ends early; the connection must close before the bytes after it")
    add("te-cl", [te, cl4], in_chunk, CLOSE)

    # Obfuscated Transfer-Encoding.
    add("te-chunked-identity", ["Transfer-Encoding: chunked, identity", cl4], in_chunk, REFUSE,
        "chunked is not the final coding")
    add("te-identity-chunked", ["Transfer-Encoding: identity, chunked"], in_chunk, REFUSE,
        "identity is no coding of RFC 9112")
    add("te-leading-space", ["Transfer-Encoding:  chunked", cl4], in_chunk, CLOSE,
        "extra whitespace: still chunked")
    add("te-tab", ["Transfer-Encoding:\tchunked", cl4], in_chunk, CLOSE, "a tab is whitespace: still chunked")
    add("te-upper", ["Transfer-Encoding: CHUNKED", cl4], in_chunk, CLOSE, "coding names are case-insensitive")
    add("te-space-before-colon", ["Transfer-Encoding : chunked", cl4], in_chunk, REFUSE,
        "whitespace before the colon (RFC 9112 5.1: 400)")
    add("te-vertical-tab", ["Transfer-Encoding:\x0bchunked", cl4], in_chunk, REFUSE,
        "a vertical tab is no whitespace")
    add("te-repeated", [te, te], in_chunk, REFUSE, "chunked applied twice")
    add("te-chunked-then-identity", [te, "Transfer-Encoding: identity", cl4], in_chunk, REFUSE,
        "a repeated header whose last coding is not chunked")
    add("te-unknown", ["Transfer-Encoding: xchunked", cl4], in_chunk, REFUSE,
        "an unknown coding (400 or 501)")
    add("te-http10", [te], in_chunk, CLOSE,
        "Transfer-Encoding in HTTP/1.0: faulty framing, close after (RFC 9112 6.1)",
        version="HTTP/1.0")
    add("control-chunked", [te], in_chunk, KEEP, "control: a plain chunked body", control=True)

    # Content-Length variants.
    add("cl-duplicate-same", ["Content-Length: 5", "Content-Length: 5"], b"hello", KEEP,
        "identical values may be merged (RFC 9110 8.6)")
    add("cl-list-same", ["Content-Length: 5, 5"], b"hello", KEEP)
    add("cl-conflict", ["Content-Length: 0", "Content-Length: {n}"], smuggled, REFUSE)
    add("cl-conflict-list", ["Content-Length: 0, {n}"], smuggled, REFUSE)
    add("cl-plus", ["Content-Length: +5"], b"hello", REFUSE)
    add("cl-hex", ["Content-Length: 0x5"], b"hello", REFUSE)
    add("cl-overflow", ["Content-Length: 18446744073709551616"], smuggled, REFUSE,
        "2^64, which must not wrap to 0")
    add("control-cl", ["Content-Length: 5"], b"hello", KEEP, "control", control=True)

    # obs-fold (RFC 9112 5.2): refused, or each fold replaced by a space.
    add("obs-fold-te", ["Content-Length: {n}", "X-Note: a", " " + te], after_end, KEEP,
        "folded into X-Note it is no field of its own: the body is Content-Length long")
    add("obs-fold-te-value", [cl4, "Transfer-Encoding:", " chunked"], in_chunk, CLOSE,
        "a folded value is still chunked, with a Content-Length")

    # Bare CR and LF (RFC 9112 2.2).
    add("bare-cr", ["Content-Length: {n}", "X-Note: a\r" + te], after_end, KEEP,
        "a bare CR is invalid or a space, never a line end")
    add("bare-lf-head", ["Content-Length: 5"], b"hello", KEEP, "a bare LF may end the lines of a head",
        eol="\n")
    add("bare-lf-te", ["Content-Length: {n}", "X-Note: a\n" + te], after_end, CLOSE,
        "if the LF ends a line, Content-Length and Transfer-Encoding together")

    # Chunk lines (RFC 9112 7.1).
    add("chunk-ext", [te], b'5;name=value;q="a b"\r\nhello\r\n0;x\r\n\r\n', KEEP,
        "chunk extensions are ignored")
    add("chunk-ext-bare-lf", [te], lambda name: b"2;\nxx\r\n" + in_chunk(name), KEEP,
        "a bare LF in a chunk line (TERM.EXT): refused, or taken as the line end")
    add("chunk-size-overflow", [te],
        lambda name: b"10000000000000005\r\nhello\r\n" + smuggled(name) + b"\r\n0\r\n\r\n",
        REFUSE, "2^64+5, which must not wrap to 5")
    add("chunk-size-0x", [te], b"0x5\r\nhello\r\n0\r\n\r\n", REFUSE)
    add("chunk-size-space", [te], b" 5\r\nhello\r\n0\r\n\r\n", REFUSE)
    add("chunk-data-overrun", [te], lambda name: b"3\r\nhello\r\n" + after_end(name), REFUSE,
        "more data than the chunk size")
    add("chunk-trailer", [te], b"5\r\nhello\r\n0\r\nX-Trailer: t\r\n\r\n", KEEP,
        "a trailer section ends the body")

    # Absolute-form targets (RFC 9112 3.2.2): the path from the target, its authority instead of Host.
    add("absolute-form", ["Content-Length: 5"], b"hello", KEEP,
        "well-formed: a server must accept it (RFC 9112 3.2.2)",
        control=True, target="http://storefront/smuggle/absolute-form/first")
    add("absolute-form-other-host", ["Content-Length: 5"], b"hello", KEEP,
        "Host differs from the target's authority: the target wins",
        target="http://elsewhere.example/smuggle/absolute-form-other-host/first")
    extra = "/smuggle/request-line-extra-word/smuggled"
    add("request-line-extra-word", ["Content-Length: 0"], b"", REFUSE, "a request line of four words",
        target=f"http://storefront/smuggle/request-line-extra-word/first HTTP/1.1 {extra}")
    return cases


class Answer:
    def __init__(self, status, headers, body):
        self.status = status
        self.headers = headers
        self.body = body

    def marker(self):
        """(METHOD, case, tail) from storefront's 404 "Cannot METHOD /smuggle/case/tail", or None."""
        m = MARKER.search(self.body.decode("latin-1"))
        return m.groups() if m else None

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
        except (ConnectionResetError, ssl.SSLError):
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


def connector(host, port, tls):
    """A function opening a connection to the frontend: plain, or TLS offering only HTTP/1.1 (self-signed)."""
    context = None
    if tls:
        context = ssl.create_default_context()
        context.check_hostname = False
        context.verify_mode = ssl.CERT_NONE
        context.set_alpn_protocols(["http/1.1"])

    def connect():
        sock = socket.create_connection((host, port), timeout=READ_BOUND)
        return context.wrap_socket(sock, server_hostname="localhost") if context else sock

    return connect


def exchange(connect, payload):
    """Sends payload, returns (answers, how the connection ended: closed, timeout or garbage)."""
    sock = connect()
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
    """None when the outcome is one RFC 9112 allows, without desync; else what went wrong."""
    marks = [a.marker() for a in answers]
    for a, m in zip(answers, marks):
        if m is None:
            continue
        if m[1] != case.name:
            return f"DESYNC: an answer for another case's request: {a!r}"
        if m[2] == "smuggled":
            return f"DESYNC: answered bytes that are a request only under a wrong reading (or after a " \
                f"required close): {a!r}"
    if end != "closed":
        return f"the connection did not end cleanly: {end}"
    if not answers:
        return "no answer at all"
    first, nxt = ("POST", case.name, "first"), ("GET", case.name, "next")
    refused = answers[0].status in REFUSALS
    if refused:
        if case.control:
            return f"a well-formed request was refused: {answers[0]!r}"
        # A refusal by storefront after HAProxy framed R1 as RFC 9112 does leaves the client connection
        # usable.
        if marks[1:] not in ([], [nxt]):
            return f"after the refusal: {answers[1:]!r}"
        return None
    if case.allowed == REFUSE:
        return f"must be refused (400), was answered {answers[0]!r}"
    if answers[0].status != 404 or marks[0] != first:
        return f"R1 answered as something else: {answers[0]!r}"
    if case.allowed == CLOSE and len(answers) > 1:
        return f"the connection stayed open after R1 although RFC 9112 requires it closed: {answers[1:]!r}"
    if marks[1:] not in ([], [nxt]):
        return f"after R1: {answers[1:]!r}"
    return None


def victims_answered(connect, name):
    """Two requests on one new connection, one after the other: each answered as sent."""
    sock = connect()
    try:
        reader = Reader(sock, time.monotonic() + READ_BOUND)
        for i in (1, 2):
            sock.sendall(crlf([f"GET /smuggle/{name}/victim{i} HTTP/1.1", "Host: storefront", ""]))
            a = reader.answer()
            if a.status != 404 or a.marker() != ("GET", name, f"victim{i}"):
                return f"a later client's request {i} was answered with {a!r}"
    except (EOFError, TimeoutError) as e:
        return f"a later client got no answer ({type(e).__name__})"
    finally:
        sock.close()
    return None


def main():
    host, ports = sys.argv[1], [(int(sys.argv[2]), False)]
    if len(sys.argv) > 3:
        ports.append((int(sys.argv[3]), True))
    failures = runs = 0
    for port, tls in ports:
        connect = connector(host, port, tls)
        print(f"smuggling: frontend {'HTTPS' if tls else 'HTTP'} on {host}:{port}")
        for case in build_cases():
            answers, end = exchange(connect, case.raw + follower(case.name))
            reason = judge(case, answers, end) or victims_answered(connect, case.name)
            summary = ", ".join(f"{a.status}" + (f" {a.marker()[2]}" if a.marker() else "") for a in answers)
            verdict = "ok  " if reason is None else "FAIL"
            print(f"{verdict} {case.name:26} {case.allowed:7} {summary or 'no answer'}, {end}"
                  + (f"  -- {reason}" if reason else f"  ({case.note})" if case.note else ""))
            runs += 1
            failures += reason is not None
    print(f"smuggling: {runs - failures} of {runs} cases passed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
