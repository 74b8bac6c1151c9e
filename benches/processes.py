#!/usr/bin/env python3
"""Whole processes of the real binary, compared variant against variant.

Criterion times code inside one process; what a user of `overhear render`
waits for also holds the process start, the allocator and the exit. This runs
builds of the binary (or one build under different environments) side by
side: every round runs every conversation of the corpus with every variant,
one after the other, so that all see the same load on a shared machine, and
keeps each pair's best CPU time (user + system) and its peak resident memory.

    python3 benches/processes.py ROUNDS LABEL=BINARY[:VAR=VALUE,...] ...
    python3 benches/processes.py --start ROUNDS LABEL=BINARY ...   # `--version`, 20 per round
    python3 benches/processes.py --args "render DIR --turn -1" ROUNDS LABEL=BINARY ...  # one command line
    python3 benches/processes.py --json FILE --args "render DIR --turn -1" ROUNDS LABEL=BINARY ...
        # and, in every round, Python's `json.load` of FILE: the issue's baseline, with ratios to it

The conversations are the folders of $OVERHEAR_CORPUS (../shared/fixtures/jp by
default), each rendered as `render --width 100 --color always DIR`, output to
/dev/null. Each process is started by a small C launcher (built here with `cc`)
that forks, execs and reads the child's CPU time and peak memory with wait4:
a child of Python would carry Python's ~10 MiB into its peak across exec.
docs/benchmarks.md's history ("The allocator and the process start") has runs of it.
"""

import os
import shlex
import shutil
import subprocess
import sys
import tempfile

LAUNCHER = r"""
#include <fcntl.h>
#include <stdio.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
int main(int argc, char **argv) {
  if (argc < 2) return 2;
  pid_t pid = fork();
  if (pid == 0) {
    int null = open("/dev/null", O_WRONLY);
    dup2(null, 1);
    execv(argv[1], argv + 1);
    _exit(127);
  }
  int status;
  struct rusage usage;
  wait4(pid, &status, 0, &usage);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    fprintf(stderr, "%s: status %d\n", argv[1], status);
    return 1;
  }
  long us = (usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) * 1000000L
          + usage.ru_utime.tv_usec + usage.ru_stime.tv_usec;
  printf("%ld %ld\n", us, usage.ru_maxrss);
  return 0;
}
"""


def launcher(folder):
    """The C launcher, compiled into `folder`."""
    source = os.path.join(folder, "launch.c")
    binary = os.path.join(folder, "launch")
    with open(source, "w") as out:
        out.write(LAUNCHER)
    subprocess.run(["cc", "-O2", "-o", binary, source], check=True)
    return binary


def variant(spec):
    """`LABEL=BINARY[:VAR=VALUE,...]` → (label, binary, environment)."""
    label, _, rest = spec.partition("=")
    binary, _, assignments = rest.partition(":")
    env = dict(os.environ)
    for assignment in filter(None, assignments.split(",")):
        name, _, value = assignment.partition("=")
        env[name] = value
    return label, os.path.abspath(binary), env


def main(args):
    start = args[:1] == ["--start"]
    if start:
        args = args[1:]
    command = None
    json_file = None
    if args[:1] == ["--json"] and len(args) > 1:
        json_file, args = args[1], args[2:]
    if args[:1] == ["--args"] and len(args) > 1:
        command, args = shlex.split(args[1]), args[2:]
    if len(args) < 2:
        sys.exit(__doc__)
    rounds = int(args[0])
    variants = [variant(spec) for spec in args[1:]]
    corpus = os.environ.get("OVERHEAR_CORPUS", "../shared/fixtures/jp")
    if start:
        jobs = [("--version", ["--version"])] * 20
    elif command:
        jobs = [(" ".join(command), command)]
    else:
        names = sorted(
            n for n in os.listdir(corpus) if os.path.isdir(os.path.join(corpus, n))
        )
        jobs = [
            (n, ["render", "--width", "100", "--color", "always", os.path.join(corpus, n)])
            for n in names
        ]
    if json_file:
        python = ["-c", "import json, sys; json.load(open(sys.argv[1], 'rb'))", json_file]
        baseline = ("python json.load", shutil.which("python3"), dict(os.environ))
        variants = [baseline] + variants
    best, peak = {}, {}
    with tempfile.TemporaryDirectory() as folder:
        launch = launcher(folder)
        for _ in range(rounds):
            for name, arguments in jobs:
                for label, binary, env in variants:
                    argv = python if json_file and label == baseline[0] else arguments
                    out = subprocess.run(
                        [launch, binary] + argv,
                        env=env,
                        check=True,
                        capture_output=True,
                        text=True,
                    ).stdout.split()
                    key = (label, name)
                    best[key] = min(best.get(key, float("inf")), int(out[0]) / 1000)
                    peak[key] = max(peak.get(key, 0), int(out[1]))
    names = sorted({name for name, _ in jobs})
    size = os.path.getsize(json_file) if json_file else None
    for label, _, _ in variants:
        total = sum(best[(label, n)] for n in names)
        slowest = max(names, key=lambda n: best[(label, n)])
        rss = max(peak[(label, n)] for n in names)
        line = (
            f"{label:16s} {total:8.2f} ms CPU in all · slowest {best[(label, slowest)]:6.2f} ms"
            f" ({slowest}) · peak RSS at most {rss / 1024:.1f} MiB"
        )
        if json_file:
            python = sum(best[(baseline[0], n)] for n in names)
            line += f" · {total / python:.3f}× Python by CPU · RSS {rss * 1024 / size:.3f}× the file"
        print(line)


if __name__ == "__main__":
    main(sys.argv[1:])
