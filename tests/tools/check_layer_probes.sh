#!/usr/bin/env bash
# Builds the layer probes of tests/tools/layer_probes in a configured build directory: the control must
# compile, every other probe must fail with its included header not found.
# Usage: check_layer_probes.sh BUILD_DIR
set -uo pipefail
build="$1"
status=0
probe() { cmake --build "$build" --target "layer_probe_$1" 2>&1; }

if ! out="$(probe allowed_codec_from_routing)"; then
    echo "include_layers_enforced: the control probe did not compile:" >&2
    tail -20 <<<"$out" >&2
    status=1
fi
for name_header in upward_routing_from_codec:server/routing/router.hpp \
    sideways_petstore_from_store:server/api/petstore/pet_services.hpp \
    engine_sees_no_server:server/codec/json_writer.hpp; do
    name="${name_header%%:*}"
    header="${name_header#*:}"
    if out="$(probe "$name")"; then
        echo "include_layers_enforced: $name compiled, so $header is visible where it must not be" >&2
        status=1
    elif ! grep -q "$header: No such file or directory\|'$header' file not found" <<<"$out"; then
        echo "include_layers_enforced: $name failed for another reason:" >&2
        tail -20 <<<"$out" >&2
        status=1
    fi
done
((status == 0)) && echo "include_layers_enforced: upward and sideways includes do not compile; downward ones do"
exit "$status"
