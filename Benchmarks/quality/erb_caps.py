#!/usr/bin/env python3
"""Per-band depth caps over a flat host spectrum: the first form of the watermark's masking model
(the "flatness model", docs/experiments.md). QixWatermark.TileMasking (docs/watermark.md
section 2) computes each tile's cap from the tile's own spectrum with the same filters; this
flat-host table is the reference that model reduces to.

The mark scales a band's lower 125 Hz half by 1 + d and its upper half by 1 - d (or the
reverse, by the tile's chip). The ear hears the change of excitation in its auditory filters.
This script models each filter as Patterson's rounded exponential roex(p), p = 4 f / ERB(f),
ERB(f) = 24.7 (4.37 f / 1000 + 1) Hz (Glasberg & Moore 1990), over a flat host spectrum, and
finds per band the depth whose worst excitation change, over filter centres anywhere in the band
and the neighbouring two bands' chips either way, equals the change that depth 0.25 gives in the
lowest band (format 1's single cap, 12 dB under the host). The flatness model capped it at 0.5.

    python3 Benchmarks/quality/erb_caps.py      # needs numpy; prints band, centre, ERB, cap
"""

import itertools
import math

import numpy as np

BANDS = 22
FIRST_HZ = 500.0
BAND_HZ = 250.0
FORMAT1_CAP = 0.25
FREQS = np.arange(0.0, 8000.0, 2.0)


def erb(f):
    return 24.7 * (4.37 * f / 1000 + 1)


def gains(d, band, signs):
    """Amplitude gain per frequency with bands band-2..band+2 marked with the given chip signs."""
    g = np.ones_like(FREQS)
    for j, s in zip(range(band - 2, band + 3), signs):
        if 0 <= j < BANDS:
            low = FIRST_HZ + BAND_HZ * j
            g[(FREQS >= low) & (FREQS < low + BAND_HZ / 2)] = 1 + s * d
            g[(FREQS >= low + BAND_HZ / 2) & (FREQS < low + BAND_HZ)] = 1 - s * d
    return g


def excursion(d, band):
    """Largest |excitation change| in dB over filter centres in the band and neighbour chips."""
    worst = 0.0
    for others in itertools.product([1, -1], repeat=4):
        power = gains(d, band, [others[0], others[1], 1, others[2], others[3]]) ** 2
        low = FIRST_HZ + BAND_HZ * band
        for centre in np.arange(low, low + BAND_HZ, 15.625):
            p = 4 * centre / erb(centre)
            x = np.abs(FREQS - centre) / centre
            weight = (1 + p * x) * np.exp(-p * x)
            worst = max(worst, abs(10 * math.log10((weight * power).sum() / weight.sum())))
    return worst


def main():
    limit = excursion(FORMAT1_CAP, 0)
    print(f"excitation change of depth {FORMAT1_CAP} in the lowest band: {limit:.2f} dB")
    for band in range(BANDS):
        low, high = 0.0, 0.9
        for _ in range(14):
            mid = (low + high) / 2
            if excursion(mid, band) <= limit:
                low = mid
            else:
                high = mid
        centre = FIRST_HZ + BAND_HZ * band + BAND_HZ / 2
        print(f"band {band:2d}  {centre:6.0f} Hz  ERB {erb(centre):4.0f} Hz  cap {low:.3f}")


if __name__ == "__main__":
    main()
