#!/usr/bin/env python3
"""Evaluates SDK payloads with GrowthBook's Python SDK, for Remix's interop tests.

Usage: evaluate_payload.py JOB.json RESULTS.json

JOB.json holds {"payloads": {NAME: PAYLOAD}, "cases": [{"attributes": {...}, "forced": {...}}]}.
For every payload, every feature of it is evaluated for every case (attributes, and optional QA
forced variations by experiment key) through the SDK's public API, exactly as an app would.
RESULTS.json receives {"sdk": VERSION, "results": {NAME: {FEATURE: [RESULT, ...]}}}, one RESULT per
case in order: {"source", "ruleId", "experiment", "variationId", "inExperiment", "hashUsed", "value"}.
"""
import json
import sys
from importlib import metadata

from growthbook import GrowthBook


def load(payload):
    """A GrowthBook instance holding the payload's features and saved groups."""
    if hasattr(GrowthBook, "set_payload"):
        gb = GrowthBook()
        gb.set_payload(payload)
        return gb
    # Older SDKs: features and saved groups through the constructor.
    return GrowthBook(features=payload.get("features", {}), savedGroups=payload.get("savedGroups", {}))


def evaluate(gb, feature, case):
    # Copies: the SDK keeps (and on destroy() clears) the dictionaries it is given.
    gb.set_attributes(dict(case["attributes"]))
    gb.set_forced_variations(dict(case.get("forced") or {}))
    result = gb.eval_feature(feature)
    experiment = result.experimentResult
    return {
        "source": result.source,
        "ruleId": getattr(result, "ruleId", None),
        "experiment": result.experiment.key if result.experiment is not None else None,
        "variationId": experiment.variationId if experiment is not None else None,
        "inExperiment": experiment.inExperiment if experiment is not None else None,
        "hashUsed": experiment.hashUsed if experiment is not None else None,
        "value": result.value,
    }


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: evaluate_payload.py JOB.json RESULTS.json")
    with open(sys.argv[1], encoding="utf-8") as handle:
        job = json.load(handle)
    results = {}
    for name, payload in job["payloads"].items():
        gb = load(payload)
        results[name] = {
            feature: [evaluate(gb, feature, case) for case in job["cases"]]
            for feature in sorted(payload.get("features", {}))
        }
    with open(sys.argv[2], "w", encoding="utf-8") as handle:
        json.dump({"sdk": metadata.version("growthbook"), "results": results}, handle)


if __name__ == "__main__":
    main()
