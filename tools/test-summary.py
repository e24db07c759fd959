#!/usr/bin/env python3
"""Counts a test run's results apart: passed, failed, skipped (ctest's own summary line counts a
skipped test as passed). Reads ctest's JUnit file and the GoogleTest XML files that the gtest
entries write (tests/CMakeLists.txt), lists what was skipped or failed, and under CI (CI=true)
fails when anything was skipped: a machine set up by tools/setup.sh has every dependency.

    tools/test-summary.py CTEST_JUNIT_XML GTEST_RESULTS_DIR
"""
import glob
import os
import sys
import xml.etree.ElementTree as ET


def one_line(text):
    return ": ".join(line.strip() for line in (text or "").strip().splitlines() if line.strip())


def main():
    junit, gtest_dir = sys.argv[1], sys.argv[2]
    entries = {"passed": [], "failed": [], "skipped": []}
    for case in ET.parse(junit).getroot().iter("testcase"):
        name = case.get("name")
        if case.find("failure") is not None or case.get("status") == "fail":
            entries["failed"].append(name)
        elif case.find("skipped") is not None or case.get("status") == "notrun":
            entries["skipped"].append(name)
        else:
            entries["passed"].append(name)
    cases = {"passed": [], "failed": [], "skipped": []}
    files = sorted(glob.glob(os.path.join(gtest_dir, "*.xml")))
    for path in files:
        entry = os.path.basename(path)[:-len(".xml")]
        for case in ET.parse(path).getroot().iter("testcase"):
            name = f"{entry}: {case.get('classname')}.{case.get('name')}"
            skipped = case.find("skipped")
            if case.find("failure") is not None:
                cases["failed"].append(name)
            elif skipped is not None or case.get("result") == "skipped" \
                    or case.get("status") == "notrun":
                why = one_line(skipped.get("message")) if skipped is not None else "disabled"
                cases["skipped"].append(f"{name} ({why})" if why else name)
            else:
                cases["passed"].append(name)

    def line(what, counts):
        total = sum(len(v) for v in counts.values())
        return (f"{what} {total}: {len(counts['passed'])} passed, {len(counts['failed'])} "
                f"failed, {len(counts['skipped'])} skipped")
    print("summary: " + line("ctest entries", entries))
    print("summary: " + line("GoogleTest cases", cases) + f" (from {len(files)} gtest entries)")
    for kind in ("skipped", "failed"):
        for name in entries[kind]:
            print(f"summary: {kind} entry {name}")
        for name in cases[kind]:
            print(f"summary: {kind} case {name}")
    ci = os.environ.get("CI", "")
    if ci not in ("", "0", "false") and (entries["skipped"] or cases["skipped"]):
        print("summary: CI: tests were skipped (above); on a machine set up by tools/setup.sh "
              "nothing may skip")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
