#!/usr/bin/env python3
"""Checks a bar chart PNG (`mdremap compare --plot`): not blank, and GROUPS bar groups along the
x axis. A group is a run of bar-coloured columns standing on the x axis (the
lowest long dark line of the frame) between the frame's sides; bars within a group touch or are
split only by their borders, so the count does not depend on how many series (clustered or
stacked) a group holds. (A zero-height series between two others of a clustered group would
split it; stacked bars have no such gap.)

    check_bar_plot.py PNG GROUPS
"""
import sys

import numpy as np

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
from png_image import not_background, read_png


def runs(mask):
    """(start, end) of each run of True, end exclusive."""
    padded = np.concatenate(([False], mask, [False])).astype(np.int8)
    edges = np.flatnonzero(np.diff(padded))
    return list(zip(edges[0::2], edges[1::2]))


def x_axis(dark):
    """The lowest row whose longest dark run spans 40% of the width (the frame's bottom), and
    that run's columns (the plot's x extent)."""
    width = dark.shape[1]
    for r in range(dark.shape[0] - 1, -1, -1):
        long = [(s, e) for s, e in runs(dark[r]) if e - s >= 0.4 * width]
        if long:
            return r, max(long, key=lambda se: se[1] - se[0])
    raise AssertionError("no x axis line found")


def bar_groups(pixels):
    colours, counts = np.unique(pixels.reshape(-1, 3), axis=0, return_counts=True)
    background = colours[counts.argmax()]
    luminance = pixels.mean(axis=2)
    dark = luminance < 80
    axis, (left, right) = x_axis(dark)
    top = axis
    while top > 0 and dark[top - 1].mean() > 0.3:  # a thick axis line: start above it
        top -= 1
    band = range(max(top - 4, 0), top)
    # Bar fill: neither background nor dark (dark is borders, axes and text).
    bar = np.zeros(pixels.shape[1], dtype=bool)
    for r in band:
        bar |= not_background(pixels[r:r + 1], background, 30)[0] & ~dark[r]
    bar[:left + 3] = False  # outside the frame: tick labels; at its sides: the border
    bar[right - 3:] = False
    merged = []
    for s, e in runs(bar):
        if merged and s - merged[-1][1] <= 4:  # split only by bar borders: same group
            merged[-1] = (merged[-1][0], e)
        else:
            merged.append((s, e))
    return [(s, e) for s, e in merged if e - s >= 3], axis


def main():
    png, want = sys.argv[1], int(sys.argv[2])
    pixels = read_png(png)
    h, w, _ = pixels.shape
    assert w >= 200 and h >= 100, f"{png}: {w}x{h} is too small for a chart"
    assert pixels.std() > 10, f"{png}: blank (pixel standard deviation {pixels.std():.2f})"
    groups, axis = bar_groups(pixels)
    print(f"{png}: {w}x{h}, x axis at row {axis}, bar groups at columns {groups}")
    assert len(groups) == want, f"{png}: {len(groups)} bar groups, want {want}"
    print(f"OK check_bar_plot: {want} bar groups")


if __name__ == "__main__":
    sys.exit(main())
