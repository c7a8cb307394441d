#!/usr/bin/env bash
# Builds and runs the README's two library examples from a separate package that depends on this
# one by path, as a user of QixKit would: one executable for the watermark example, one for the
# dynamics example, so each must link on its own (a missing system library shows up as an
# undefined symbol here, not in this package's own build, where the test targets pull it in).
#
#   Tests/Consumer/run.sh            (exit 0 when both examples build, run and print what the README says)
#
# Needs what `bash .ci/install-deps` installs. Prints the time each phase took.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
start=$(date +%s)

mkdir -p "$WORK/Sources/watermark-example" "$WORK/Sources/dynamics-example"
cat >"$WORK/Package.swift" <<SWIFT
// swift-tools-version:5.9
import PackageDescription

let package = Package(
    name: "QixKitConsumer",
    dependencies: [.package(path: "$ROOT")],
    targets: [
        .executableTarget(name: "watermark-example", dependencies: [
            .product(name: "QixAudio", package: "$(basename "$ROOT")"),
            .product(name: "QixWatermark", package: "$(basename "$ROOT")"),
        ]),
        .executableTarget(name: "dynamics-example", dependencies: [
            .product(name: "QixDynamics", package: "$(basename "$ROOT")"),
        ]),
    ]
)
SWIFT

# The README's two examples, taken from README.md itself so that what runs here is what a
# reader copies: the first swift block after each example's sentence.
readme_block() {
    awk -v start="$1" '
        index($0, start) == 1 { found = 1; next }
        found && /^```swift/ { inside = 1; next }
        inside && /^```/ { exit }
        inside { print }
    ' "$ROOT/README.md"
}
readme_block "Mark a spot and read it back" >"$WORK/Sources/watermark-example/main.swift"
readme_block "Drop a card onto the bottom of the screen" >"$WORK/Sources/dynamics-example/main.swift"
for example in watermark-example dynamics-example; do
    if [ ! -s "$WORK/Sources/$example/main.swift" ]; then
        echo "consumer: README.md has no swift block for $example" >&2
        exit 1
    fi
done

cd "$WORK"
cp "$ROOT/corpus/clips/a02_music_orchestral_wesnoth_heroes-rite.flac" spot.flac
swift build 2>&1 | tail -n 3
built=$(date +%s)
echo "consumer: built in $((built - start)) s"

dynamics=$(.build/debug/dynamics-example)
echo "dynamics-example: $dynamics"
# The card lands flat where it fell (x = 195, angle 0) on the bottom edge, its centre 100 points
# above it (y = 744): exactly what the README's comment on that line says it prints.
expected=$(awk -F'// ' '/^print\(card.center, card.angle\)/ { split($2, part, ":"); print part[1]; exit }' "$ROOT/README.md")
if [ -z "$expected" ] || [ "$dynamics" != "$expected" ]; then
    echo "consumer: the dynamics example printed $dynamics where the README says ${expected:-nothing}" >&2
    exit 1
fi
watermark=$(.build/debug/watermark-example)
echo "watermark-example: $watermark"
case "$watermark" in
    0a1b2c3d*) ;;
    *) echo "consumer: the watermark example did not find 0a1b2c3d" >&2; exit 1 ;;
esac
echo "consumer: ok in $(( $(date +%s) - start )) s (build $((built - start)) s, runs $(( $(date +%s) - built )) s)"
