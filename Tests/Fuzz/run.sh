#!/usr/bin/env bash
# Builds the fuzz harnesses under sanitizers and runs each for SECONDS (default 60) from its
# committed seed corpus; exits non-zero when any harness crashes (a sanitizer report, a
# trap, or a disagreement the harness checks), keeping the crashing input.
#
#   Tests/Fuzz/run.sh [SECONDS]
#
# flac_frame: the own FLAC frame decoder (C) under ASan+UBSan, held to libFLAC.
# raw_pcm, scene, deck, gestures: RawPCMReader and the scene, deck and gesture loaders
# (Swift) under ASan, their sources compiled here with -sanitize=fuzzer,address.
# Needs the Swift toolchain's clang and swiftc (libFuzzer ships with them) and libFLAC's
# headers (.ci/install-deps). Work files go to .build/fuzz; the corpora are not modified.
set -euo pipefail
cd "$(dirname "$0")/../.."
SECONDS_EACH=${1:-60}
TOOLCHAIN=$(dirname "$(command -v swiftc)")
CLANG=${CLANG:-$TOOLCHAIN/clang}
SWIFTC=${SWIFTC:-$TOOLCHAIN/swiftc}
OUT=.build/fuzz
MODULES=$OUT/modules
mkdir -p "$OUT" "$MODULES" "$OUT/artifacts"

# C: the frame decoder and its harness, linked with libFLAC.
"$CLANG" -fuse-ld=lld -O1 -g -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
    -ISources/CFLACFrame/include Sources/CFLACFrame/FLACFrame.c Tests/Fuzz/flac_frame/FLACFrameFuzz.c \
    $(pkg-config --cflags --libs flac) -o "$OUT/flac_frame"

SWIFT_FLAGS=(-O -swift-version 6 -parse-as-library -sanitize=fuzzer,address -use-ld=lld -I "$MODULES")

# Swift module from sources: name, then files; objects in $MODULES.
swift_module() {
    local name=$1; shift
    "$SWIFTC" "${SWIFT_FLAGS[@]}" -wmo -module-name "$name" -emit-module -emit-module-path "$MODULES/$name.swiftmodule" \
        -emit-object -o "$MODULES/$name.o" "$@"
}

# raw_pcm: the reader and what it uses, in the harness's own module.
"$SWIFTC" -O -swift-version 6 -parse-as-library -sanitize=fuzzer,address -use-ld=lld -module-name RawPCMFuzz \
    Sources/QixAudio/RawPCMReader.swift Sources/QixAudio/RawSampleFormat.swift Sources/QixAudio/InputSpool.swift \
    Sources/QixDSP/QixError.swift Tests/Fuzz/raw_pcm/RawPCMFuzz.swift -o "$OUT/raw_pcm"

# The physics loaders: the engine (with its C kernel), scenes and cards, module by module.
mkdir -p "$MODULES/CContactKernel"
cat > "$MODULES/CContactKernel/module.modulemap" <<MAP
module CContactKernel {
    header "$PWD/Sources/CContactKernel/include/CContactKernel.h"
    header "$PWD/Sources/CContactKernel/include/BoxManifold.h"
    export *
}
MAP
for c in Sources/CContactKernel/*.c; do
    "$CLANG" -O1 -g -fsanitize=fuzzer-no-link,address -ISources/CContactKernel/include -c "$c" \
        -o "$MODULES/CContactKernel-$(basename "$c" .c).o"
done
KERNEL=(-Xcc "-fmodule-map-file=$MODULES/CContactKernel/module.modulemap")
swift_module QixMarkup $(find Sources/QixMarkup -name '*.swift')
swift_module QixDynamics "${KERNEL[@]}" $(find Sources/QixDynamics -name '*.swift')
swift_module QixScenes "${KERNEL[@]}" $(find Sources/QixScenes -name '*.swift')
swift_module QixCards "${KERNEL[@]}" $(find Sources/QixCards -name '*.swift')
OBJECTS=("$MODULES"/*.o)
for harness in scene:SceneFuzz deck:DeckFuzz gestures:GesturesFuzz; do
    name=${harness%%:*} file=${harness##*:}
    "$SWIFTC" -O -swift-version 6 -parse-as-library -sanitize=fuzzer,address -use-ld=lld -I "$MODULES" "${KERNEL[@]}" \
        -module-name "$file" "Tests/Fuzz/$name/$file.swift" "${OBJECTS[@]}" -o "$OUT/$name"
done

# Run each harness from a scratch copy of its corpus.
status=0
summary=""
for name in flac_frame raw_pcm scene deck gestures; do
    work=$OUT/work/$name
    rm -rf "$work" && mkdir -p "$work"
    log=$OUT/$name.log
    if "$OUT/$name" -max_total_time="$SECONDS_EACH" -timeout=20 -rss_limit_mb=2560 -print_final_stats=1 \
        -artifact_prefix="$OUT/artifacts/$name-" "$work" "Tests/Fuzz/$name/corpus" > "$log" 2>&1; then
        result=ok
    else
        result="CRASH (see $log and $OUT/artifacts)"
        status=1
    fi
    runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo "?")
    summary+="$(printf '%-11s %10s runs in %ss: %s' "$name" "$runs" "$SECONDS_EACH" "$result")"$'\n'
done
printf '%s' "$summary"
exit $status
