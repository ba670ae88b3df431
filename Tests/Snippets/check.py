#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Every Swift snippet of the README and the DocC articles compiles as written (`make test-snippets`).

Each ```swift block is type-checked on its own as a program's main file against the debug build's modules
(`swift build` first), with nothing added: a snippet that needs an import or a value says so itself. A block
that starts with `// UIKit` is UIKit code shown for comparison, which builds only on Apple's platforms: it
is listed as skipped. A block that starts with `// swift-tools-version:` is a package manifest: it is written as Package.swift into a
folder beside a link to this checkout named as the manifest's `.package(path:)` says, and loaded with
`swift package dump-package`.
Usage: check.py BIN_PATH FILE.md …
"""
import glob
import os
import re
import subprocess
import sys
import tempfile

def blocks(path):
    """(line number, text) of every ```swift block of a Markdown file."""
    lines = open(path, encoding="utf-8").read().split("\n")
    found, inside, start, body = [], False, 0, []
    for number, line in enumerate(lines, 1):
        stripped = line.strip()
        if not inside and stripped.startswith("```swift"):
            inside, start, body = True, number, []
        elif inside and stripped.startswith("```"):
            found.append((start, "\n".join(body) + "\n"))
            inside = False
        elif inside:
            body.append(line)
    return found

def check_manifest(text, root, work):
    folder = os.path.join(work, "app")
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, "Package.swift"), "w") as f:
        f.write(text)
    for relative in re.findall(r'\.package\(path:\s*"([^"]+)"\)', text):
        target = os.path.normpath(os.path.join(folder, relative))
        if not os.path.exists(target):
            os.makedirs(os.path.dirname(target), exist_ok=True)
            os.symlink(root, target)
    return subprocess.run(["swift", "package", "--package-path", folder, "dump-package"], capture_output=True, text=True)

def check_program(text, bin_path, work, name):
    source = os.path.join(work, name + ".swift")
    with open(source, "w") as f:
        f.write(text)
    # The C modules the Swift modules import: the kernel's (SwiftPM generates its module map) and those of
    # dependencies that ship their own in an include folder (Yams' CYaml).
    scratch = os.path.dirname(os.path.dirname(os.path.realpath(bin_path)))
    maps = glob.glob(os.path.join(bin_path, "*.build", "module.modulemap"))
    includes = [os.path.dirname(m) for m in glob.glob(os.path.join(scratch, "checkouts", "*", "Sources", "*", "include", "module.modulemap"))]
    command = ["swiftc", "-typecheck", "-swift-version", "6", "-I", os.path.join(bin_path, "Modules")]
    for path in sorted(maps):
        command += ["-Xcc", "-fmodule-map-file=" + path]
    for path in sorted(includes):
        command += ["-Xcc", "-I" + path]
    command.append(source)
    return subprocess.run(command, capture_output=True, text=True)

def main():
    bin_path, files = os.path.abspath(sys.argv[1]), sys.argv[2:]
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    passed = failed = 0
    with tempfile.TemporaryDirectory() as work:
        for path in files:
            for k, (line, text) in enumerate(blocks(path)):
                where = f"{path}:{line}"
                if text.lstrip().startswith("// UIKit"):
                    print(f"skip {where} (UIKit code, for comparison: it builds only on Apple's platforms)")
                    continue
                if text.lstrip().startswith("// swift-tools-version:"):
                    result = check_manifest(text, root, os.path.join(work, f"manifest{passed + failed}"))
                else:
                    result = check_program(text, bin_path, work, f"snippet{passed + failed}")
                if result.returncode == 0:
                    passed += 1
                    print(f"ok {where}")
                else:
                    failed += 1
                    print(f"FAIL {where}\n{result.stdout}{result.stderr}")
    print(f"snippets: {passed} passed, {failed} failed")
    sys.exit(1 if failed or not passed else 0)

main()
