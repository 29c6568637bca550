#!/usr/bin/env python3
"""Times the GrowthBook Python SDK's run() on the inputs `remix-bench assign` uses.

Prints one line: `growthbook-python assign: <runs> runs in <s> s = <rate> assignments/s
(in experiment: <n>, variation sum: <s>)`; the counts over one pass of the users must equal
remix-bench's, which proves both assigned the same way.
"""
import sys
import time

from growthbook import Experiment, GrowthBook

USERS = 16384
PLATFORMS = ["tablet", "tablet", "tablet", "phone"]
VERSIONS = ["2.0", "2.3.1", "10.1.0", "1.9.9"]


def users():
    return [
        {"id": f"user-{i}", "platform": PLATFORMS[i % 4], "appVersion": VERSIONS[(i // 4) % 4]}
        for i in range(USERS)
    ]


def main():
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 200_000
    experiment = Experiment(
        key="bench-tablet",
        variations=["control", "treatment"],
        weights=[0.5, 0.5],
        coverage=1.0,
        hashVersion=2,
        condition={"platform": "tablet", "appVersion": {"$vgte": "2.0"}},
    )
    gb = GrowthBook()
    people = users()
    in_experiment = variation_sum = 0
    for attributes in people:
        gb.set_attributes(attributes)
        result = gb.run(experiment)
        in_experiment += int(result.inExperiment)
        variation_sum += result.variationId if result.inExperiment else 0
    start = time.perf_counter()
    for i in range(runs):
        gb.set_attributes(people[i % USERS])
        gb.run(experiment)
    elapsed = time.perf_counter() - start
    print(f"growthbook-python assign: {runs} runs in {elapsed:.3f} s = {int(runs / elapsed)} assignments/s "
          f"(in experiment: {in_experiment}, variation sum: {variation_sum})")


if __name__ == "__main__":
    main()
