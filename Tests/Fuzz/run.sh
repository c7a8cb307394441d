#!/usr/bin/env bash
# Builds the fuzz harnesses under sanitizers and runs each for SECONDS (default 60) from its
# committed seed corpus; exits non-zero when any harness crashes (a sanitizer report, a
# trap, or a disagreement the harness checks), keeping the crashing input.
#
#   Tests/Fuzz/run.sh [SECONDS [HARNESS...]]     (all harnesses when none is named)
#
# flac_frame: the own FLAC frame decoder (C) under ASan+UBSan, held to libFLAC.
# raw_pcm, scene, deck, gestures, key, manifest, audio_file: RawPCMReader, the scene, deck
# and gesture loaders, the key-file and ID parsers, the scan manifest parser and the audio
# file front end (Swift) under ASan, their sources compiled here with
# -sanitize=fuzzer,address.
# The mutation sequence is seeded (FUZZ_SEED, default 1), so a crash in CI is found again by the
# same command on any machine; FUZZ_SEED=0 draws a fresh seed, for longer hunts.
# Needs the Swift toolchain's clang and swiftc (libFuzzer ships with them) and the audio
# libraries' headers (.ci/install-deps). Work files go to .build/fuzz; the corpora are not modified.
set -euo pipefail
cd "$(dirname "$0")/../.."
SECONDS_EACH=${1:-60}
shift || true
HARNESSES=("$@")
[ ${#HARNESSES[@]} -gt 0 ] || HARNESSES=(flac_frame raw_pcm scene deck gestures key manifest audio_file)
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

# key: the key-file text and hex parsers (the rest of QixWatermark needs swift-crypto).
# Its QixDSP is QixError alone, kept apart from the full QixDSP of audio_file.
KEY=$OUT/key-modules
mkdir -p "$KEY"
"$SWIFTC" "${SWIFT_FLAGS[@]}" -module-name QixDSP -emit-module -emit-module-path "$KEY/QixDSP.swiftmodule" \
    -emit-object -o "$KEY/QixDSP.o" Sources/QixDSP/QixError.swift
"$SWIFTC" "${SWIFT_FLAGS[@]}" -I "$KEY" -module-name KeyFuzz Sources/QixWatermark/Format/WatermarkError.swift \
    Sources/QixWatermark/Format/HexDigits.swift Sources/QixWatermark/Keys/KeyFileText.swift \
    Tests/Fuzz/key/KeyFuzz.swift "$KEY/QixDSP.o" -o "$OUT/key"

# manifest: the scan manifest parser.
"$SWIFTC" "${SWIFT_FLAGS[@]}" -module-name ManifestFuzz Sources/QixScan/RecordingManifest.swift \
    Tests/Fuzz/manifest/ManifestFuzz.swift -o "$OUT/manifest"

# audio_file: QixDSP and QixAudio from source over the system audio libraries, with the C
# targets (the FLAC frame decoder, the filter kernel) compiled under ASan.
AUDIO=$OUT/audio
mkdir -p "$AUDIO"
for target in CFLACFrame CFilterKernel; do
    printf 'module %s {\n    header "%s"\n    export *\n}\n' "$target" "$PWD/Sources/$target/include/$target.h" \
        > "$AUDIO/$target.modulemap"
    for c in Sources/$target/*.c; do
        "$CLANG" -O1 -g -fsanitize=fuzzer-no-link,address -ISources/$target/include -c "$c" -o "$AUDIO/$target.o"
    done
done
SYSTEM=(-I Sources/CFFTW -I Sources/CSoxr -I Sources/CSndFile -I Sources/CFLAC -I Sources/CAVFormat
        -Xcc "-fmodule-map-file=$AUDIO/CFLACFrame.modulemap" -Xcc "-fmodule-map-file=$AUDIO/CFilterKernel.modulemap")
"$SWIFTC" "${SWIFT_FLAGS[@]}" "${SYSTEM[@]}" -wmo -module-name QixDSP -emit-module -emit-module-path "$AUDIO/QixDSP.swiftmodule" \
    -emit-object -o "$AUDIO/QixDSP.o" $(find Sources/QixDSP -name '*.swift')
"$SWIFTC" "${SWIFT_FLAGS[@]}" "${SYSTEM[@]}" -I "$AUDIO" -wmo -module-name QixAudio -emit-module \
    -emit-module-path "$AUDIO/QixAudio.swiftmodule" -emit-object -o "$AUDIO/QixAudio.o" $(find Sources/QixAudio -name '*.swift')
"$SWIFTC" "${SWIFT_FLAGS[@]}" "${SYSTEM[@]}" -I "$AUDIO" -module-name AudioFileFuzz Tests/Fuzz/audio_file/AudioFileFuzz.swift \
    "$AUDIO"/*.o $(pkg-config --libs sndfile flac libavformat libavcodec libswresample libavutil fftw3f soxr) -o "$OUT/audio_file"

# Leaks inside third-party libraries on damaged input are theirs, listed with the reason in
# lsan.supp; any other leak is a finding.
export LSAN_OPTIONS="suppressions=$PWD/Tests/Fuzz/lsan.supp${LSAN_OPTIONS:+:$LSAN_OPTIONS}"

# Run each harness from a scratch copy of its corpus.
status=0
summary=""
for name in "${HARNESSES[@]}"; do
    work=$OUT/work/$name
    rm -rf "$work" && mkdir -p "$work"
    log=$OUT/$name.log
    if "$OUT/$name" -seed="${FUZZ_SEED:-1}" -max_total_time="$SECONDS_EACH" -timeout=20 -rss_limit_mb=2560 -print_final_stats=1 \
        -artifact_prefix="$OUT/artifacts/$name-" "$work" "Tests/Fuzz/$name/corpus" > "$log" 2>&1; then
        result=ok
    else
        result="CRASH (see $log and $OUT/artifacts)"
        status=1
        # The cause and the kept input, so that a CI log names them without the work folder.
        why=$(grep -m1 -E '^(==[0-9]+==ERROR|SUMMARY|Fatal error|.*Precondition failed|.*fatal error)' "$log" || true)
        kept=$(grep -m1 -o 'Test unit written to .*' "$log" || true)
        result+=$'\n'"    ${why:-no sanitizer line, see the end of the log}"$'\n'"    ${kept}"
        tail -n 40 "$log" >&2
        unit=${kept#Test unit written to }
        if [ -f "$unit" ] && [ "$(stat -c %s "$unit")" -le 65536 ]; then
            printf 'the input, base64:\n%s\n' "$(base64 -w 0 "$unit")" >&2
        fi
    fi
    runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo "?")
    summary+="$(printf '%-11s %10s runs in %ss: %s' "$name" "$runs" "$SECONDS_EACH" "$result")"$'\n'
done
printf '%s' "$summary"
exit $status
