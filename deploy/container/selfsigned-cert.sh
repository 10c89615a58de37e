#!/bin/sh
# compose.yaml's one-shot `tls` job: a self-signed ECDSA certificate and its key in one PEM, as HAProxy's `crt`
# takes them, written into the tls volume unless one is there already. Readable by HAProxy's unprivileged user:
# a throw-away key for trying the production shape; mount a real certificate for anything else.
set -eu
pem=/tls/storefront.pem
[ -s "$pem" ] && exit 0
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 365 -subj /CN=localhost \
    -addext "subjectAltName=DNS:localhost,IP:127.0.0.1" -keyout /tmp/key.pem -out /tmp/cert.pem 2>/dev/null
cat /tmp/cert.pem /tmp/key.pem >"$pem.tmp"
rm -f /tmp/key.pem
chmod 0644 "$pem.tmp"
mv "$pem.tmp" "$pem"
