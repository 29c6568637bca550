#!/usr/bin/env python3
"""Opens every navigation state a simulated log shows with `remix run --open`.

Each distinct (stack, platform) pair of the log's `screen` events is opened once, with the user,
attributes and start time of the first session that showed it and the shipped experiments, so the
slot's feature is the one that session had. Prints how many open and why each other one does not.

    remix simulate --users 600 --seed 1 --log /tmp/m.jsonl --no-report
    bench/open_logged_states.py /tmp/m.jsonl .build/debug/remix
"""
import json
import subprocess
import sys


def main() -> int:
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    log, binary = sys.argv[1], sys.argv[2]
    sessions, pairs, app = {}, {}, "marketplace"
    with open(log) as lines:
        for line in lines:
            event = json.loads(line)
            if event["type"] == "run":
                app = event.get("app", app)
            elif event["type"] == "session_started":
                sessions[event["session"]] = (event["user"], event["attributes"], event["ts"])
            elif event["type"] == "screen" and event["session"] in sessions:
                user, attributes, start = sessions[event["session"]]
                pairs.setdefault((event["stack"], attributes.get("platform", "phone")), (user, attributes, start))
    failed = []
    for (stack, platform), (user, attributes, start) in pairs.items():
        run = subprocess.run(
            [binary, "run", "--app", app, "--experiments", "experiments", "--user", user,
             "--attributes", json.dumps(attributes), "--platform", platform, "--at", start, "--open", stack],
            input="q\n", capture_output=True, text=True)
        if run.returncode != 0:
            failed.append(f"{stack} ({platform}): {run.stderr.strip().splitlines()[-1] if run.stderr.strip() else run.returncode}")
    print(f"{app}: {len(pairs) - len(failed)} of {len(pairs)} (state, platform) pairs open")
    for failure in failed:
        print("  " + failure)
    return 0


if __name__ == "__main__":
    sys.exit(main())
