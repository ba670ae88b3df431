#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Opens a `dynamics simulate --output FILE.html` page in headless Chromium and checks that it plays:
the page loads without console errors, draws frames (its `data-frames-drawn` counter and the frame label
advance), and a screenshot is not blank. Usage: check_playback.py PAGE.html [CHROMIUM]"""
import re
import struct
import subprocess
import sys
import tempfile
import zlib
from pathlib import Path


def chromium(binary, *arguments):
    command = [binary, "--headless=new", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
               "--enable-logging=stderr", "--v=0", "--window-size=800,600", *arguments]
    return subprocess.run(command, capture_output=True, text=True, timeout=120)


def png_colours(path):
    """The number of distinct RGB(A) pixels of an 8-bit PNG (non-interlaced), decoded with zlib only."""
    data = Path(path).read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, chunks, width, height, kind = 8, b"", 0, 0, 0
    while pos < len(data):
        length, tag = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if tag == b"IHDR":
            width, height, depth, kind = struct.unpack(">IIBB", body[:10])
            assert depth == 8, "only 8-bit PNGs"
        elif tag == b"IDAT":
            chunks += body
        pos += 12 + length
    channels = {2: 3, 6: 4}[kind]
    raw, stride, previous, colours = zlib.decompress(chunks), width * channels, bytearray(width * channels), set()
    for row in range(height):
        start = row * (stride + 1)
        kind_of_filter, line = raw[start], bytearray(raw[start + 1:start + 1 + stride])
        for i in range(stride):
            left = line[i - channels] if i >= channels else 0
            up, corner = previous[i], previous[i - channels] if i >= channels else 0
            if kind_of_filter == 1: line[i] = (line[i] + left) & 255
            elif kind_of_filter == 2: line[i] = (line[i] + up) & 255
            elif kind_of_filter == 3: line[i] = (line[i] + (left + up) // 2) & 255
            elif kind_of_filter == 4:
                p = left + up - corner
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
                line[i] = (line[i] + (left if pa <= pb and pa <= pc else up if pb <= pc else corner)) & 255
        for x in range(0, stride, channels * 7):
            colours.add(bytes(line[x:x + 3]))
        previous = line
    return len(colours)


def main():
    page = Path(sys.argv[1]).resolve()
    binary = sys.argv[2] if len(sys.argv) > 2 else "chromium"
    url = page.as_uri()
    dom = chromium(binary, "--virtual-time-budget=2500", "--dump-dom", url)
    failures = []
    errors = [line for line in dom.stderr.splitlines()
              if "CONSOLE" in line and ("Uncaught" in line or "Error" in line or ":ERROR:" in line)]
    if errors:
        failures.append("console errors: " + " | ".join(errors[:3]))
    drawn = re.search(r'data-frames-drawn="(\d+)"', dom.stdout)
    frame = re.search(r'<span id="frame">(\d+)</span>', dom.stdout)
    if not drawn or int(drawn.group(1)) < 20:
        failures.append(f"frames drawn: {drawn.group(1) if drawn else 'none'} (expected at least 20 in 2.5 s)")
    # The label shows the frame on screen; playback loops, so after a whole run it may be back at 0: it must
    # exist, and have moved unless the page drew more frames than the run has.
    if not frame:
        failures.append("the page has no frame label")
    elif int(frame.group(1)) < 1 and (not drawn or int(drawn.group(1)) < 2):
        failures.append(f"the frame label did not advance: {frame.group(1)}")
    with tempfile.TemporaryDirectory() as folder:
        shot = Path(folder) / "shot.png"
        chromium(binary, "--virtual-time-budget=2000", f"--screenshot={shot}", url)
        if not shot.exists():
            failures.append("no screenshot")
        else:
            colours = png_colours(shot)
            if colours < 4:
                failures.append(f"the screenshot is blank ({colours} colours)")
    if failures:
        print(f"FAIL {page.name}: " + "; ".join(failures))
        return 1
    print(f"ok   {page.name}: {drawn.group(1)} frames drawn, frame {frame.group(1)} shown, no console errors")
    return 0


if __name__ == "__main__":
    sys.exit(main())
