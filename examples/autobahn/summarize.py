#!/usr/bin/env python3
"""Summarize an Autobahn|Testsuite fuzzingclient report for ledgerd, per section.

ledgerd is not an echo server: a text message that is not a JSON request is answered with
rippled's `{"error":"jsonInvalid",...,"value":"<the text>"}`, so every case that expects its
message echoed back "fails" even when the protocol handling is right. This script sorts each
case into:

  ok          Autobahn's verdict is OK (or NON-STRICT / INFORMATIONAL, counted apart)
  reply       failed only because a jsonInvalid reply came where the echo was expected (same
              events otherwise; a close code that merely echoes Autobahn's own is accepted)
  limit       closed with 1009: the message is over ledgerd's WS_MESSAGE_BYTES_MAX (2 MB)
  defect      anything else: a real protocol failure, listed by case

Usage: summarize.py REPORT_DIR [AGENT]
"""
import json
import os
import sys
from collections import OrderedDict

SECTIONS = OrderedDict([
    ("1", "framing (text and binary echo)"),
    ("2", "ping/pong"),
    ("3", "reserved bits"),
    ("4", "opcodes"),
    ("5", "fragmentation"),
    ("6", "UTF-8 handling"),
    ("7", "close handling"),
    ("9", "limits/performance"),
    ("10", "auto-fragmentation"),
])

REPLY_PREFIX = '{"error":"jsonInvalid"'


def reply_only(case):
    """Whether the received events are the expected ones but for jsonInvalid replies."""
    received = case["received"]
    for outcome in case["expected"].values():
        if len(outcome) != len(received):
            continue
        same = True
        for want, got in zip(outcome, received):
            if want[0] != got[0]:
                same = False
            elif got[0] == "message" and got[1] != want[1]:
                same = str(got[1]).startswith(REPLY_PREFIX)
            elif got != want:
                same = False
            if not same:
                break
        if same:
            return True
    # A message that should have been echoed before the close: the reply came instead.
    messages = [e for e in received if e[0] == "message"]
    return bool(messages) and all(str(m[1]).startswith(REPLY_PREFIX) for m in messages)


def close_ok(case):
    if case["behaviorClose"] in ("OK", "INFORMATIONAL"):
        return True
    # Autobahn gives up on an echo by closing with its own code (1001); ledgerd answers with
    # the same code. A close ledgerd started with an unexpected code stays wrong.
    return (
        case["behaviorClose"] == "WRONG CODE"
        and case["closedByMe"]
        and case["remoteCloseCode"] == case["localCloseCode"]
    )


def classify(case):
    if case["behavior"] in ("OK", "NON-STRICT", "INFORMATIONAL") and close_ok(case):
        return case["behavior"].lower()
    if case.get("remoteCloseCode") == 1009:
        return "limit"
    if case["behavior"] == "FAILED" and close_ok(case):
        # Large and many-message cases keep no events, only the verdict on what came back:
        # the reply (49 bytes of envelope around the text, as text even for binary).
        echo_verdict = "but got" in case["result"] or "Echo'ed message" in case["result"]
        if reply_only(case) or (not case["received"] and echo_verdict):
            return "reply"
    return "defect"


def main():
    report_dir = sys.argv[1]
    index = json.load(open(os.path.join(report_dir, "index.json")))
    agent = sys.argv[2] if len(sys.argv) > 2 else next(iter(index))
    table = OrderedDict((s, {}) for s in SECTIONS)
    defects = []
    for case_id, entry in index[agent].items():
        section = case_id.split(".")[0]
        case = json.load(open(os.path.join(report_dir, entry["reportfile"])))
        kind = classify(case)
        table.setdefault(section, {})
        table[section][kind] = table[section].get(kind, 0) + 1
        if kind == "defect":
            defects.append((case_id, case["behavior"], case["behaviorClose"], case["result"]))
    kinds = ["ok", "non-strict", "informational", "reply", "limit", "defect"]
    print("| section | " + " | ".join(kinds) + " |")
    print("|---|" + "---|" * len(kinds))
    for section, counts in table.items():
        if counts:
            name = "%s %s" % (section, SECTIONS.get(section, ""))
            print("| %s | %s |" % (name.strip(), " | ".join(str(counts.get(k, 0)) for k in kinds)))
    for d in sorted(defects):
        print("defect: %s %s/%s: %s" % d)
    return 1 if defects else 0


if __name__ == "__main__":
    sys.exit(main())
