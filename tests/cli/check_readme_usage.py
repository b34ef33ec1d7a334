#!/usr/bin/env python3
"""The README's command summary gives every command's options as its `--help` usage does: the
same options (and catalog's same sections), so that neither drifts from the other (the README
lacked validate's --band and catalog's userbuffers). Usage: check_readme_usage.py STRATA ROOT"""
import re
import subprocess
import sys

strata, root = sys.argv[1], sys.argv[2]
COMMANDS = ["run", "sweep", "compare", "size", "calibrate", "check", "audit", "catalog", "validate"]
OPTION = re.compile(r"(?<![\w-])(--?[a-z][a-z-]*)")


def words(text):
    """Its options, and the choices of a bracket of bare words ([gpus|models|...])."""
    found = set(OPTION.findall(text))
    for group in re.findall(r"\[([a-z|]+)\]", text):
        found |= set(group.split("|"))
    return found


def readme_usage():
    """Each command's usage text in the README's summary block: its line and the bracketed
    continuation lines under it (the description lines under them are prose)."""
    lines = open(root + "/README.md", encoding="utf-8").read().split("\n")
    usage, cmd = {}, None
    for line in lines:
        m = re.match(r"strata ([a-z]+) ", line)
        if m and m.group(1) in COMMANDS:
            cmd = m.group(1)
            usage[cmd] = usage.get(cmd, "") + line.split("  ")[0] + "\n"
        elif cmd and re.match(r" {10,}\[", line):
            usage[cmd] += line + "\n"
        else:
            cmd = None
    return usage


def help_usage(cmd):
    out = subprocess.run([strata, cmd, "--help"], capture_output=True, text=True).stdout
    return out.split("\n\n")[0]


fails = []
readme = readme_usage()
for cmd in COMMANDS:
    if cmd not in readme:
        fails.append("%s: not in the README's command summary" % cmd)
        continue
    want, got = words(help_usage(cmd)), words(readme[cmd])
    if want != got:
        fails.append("%s: the README lacks %s, has %s that --help does not" %
                     (cmd, sorted(want - got) or "nothing", sorted(got - want) or "nothing"))
for f in fails:
    print("FAIL " + f)
print("%d commands, %d differ" % (len(COMMANDS), len(fails)))
sys.exit(1 if fails else 0)
