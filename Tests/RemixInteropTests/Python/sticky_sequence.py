#!/usr/bin/env python3
"""Replays a sequence of payload changes through GrowthBook's Python SDK with sticky bucketing.

Usage: sticky_sequence.py JOB.json RESULTS.json

JOB.json holds {"feature": KEY, "steps": [{"payload": PAYLOAD, "users": [ATTRIBUTES, ...]}, ...]}.
One InMemoryStickyBucketService serves the whole sequence, as one app's store would. At each step
every user is evaluated, in order, by a GrowthBook instance holding that step's payload and the
service. RESULTS.json receives {"sdk": VERSION, "steps": [[RESULT, ...], ...]}, one RESULT per user:
{"variationId", "inExperiment", "stickyBucketUsed", "hashAttribute"} (nulls without an experiment
result), and {"documents": {KEY: DOC}} with the service's documents at the end.
"""
import json
import sys
from importlib import metadata

from growthbook import GrowthBook, InMemoryStickyBucketService


def evaluate(service, payload, feature, attributes):
    gb = GrowthBook(sticky_bucket_service=service)
    gb.set_payload(payload)
    gb.set_attributes(dict(attributes))
    result = gb.eval_feature(feature).experimentResult
    if result is None:
        return {"variationId": None, "inExperiment": None, "stickyBucketUsed": None, "hashAttribute": None}
    return {
        "variationId": result.variationId,
        "inExperiment": result.inExperiment,
        "stickyBucketUsed": result.stickyBucketUsed,
        "hashAttribute": result.hashAttribute,
    }


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: sticky_sequence.py JOB.json RESULTS.json")
    with open(sys.argv[1], encoding="utf-8") as handle:
        job = json.load(handle)
    service = InMemoryStickyBucketService()
    steps = [
        [evaluate(service, step["payload"], job["feature"], user) for user in step["users"]]
        for step in job["steps"]
    ]
    with open(sys.argv[2], "w", encoding="utf-8") as handle:
        json.dump({"sdk": metadata.version("growthbook"), "steps": steps, "documents": service.docs}, handle)


if __name__ == "__main__":
    main()
