#!/usr/bin/env python3
"""GitHub code scanning's ingestion rules for a SARIF log, as the SARIF
SDK's validator states them for GitHub (its GH rules) and GitHub's
documentation of the SARIF it reads: a violation of any makes GitHub
refuse the upload or drop the result.  Each rule checked here is named
by what it requires; run_schema.sh runs this over every log the tests
write, and breaks a log once per rule to check that it is caught.
usage: sarif_github.py LOG...   (status 1 and one line per violation)"""
import json
import re
import sys

ABS_OR_REL = re.compile(r"^(file:///[^\s]*|[A-Za-z0-9._~%-][A-Za-z0-9._~%/-]*)$")


def locations(res):
    for key in ("locations", "relatedLocations"):
        for i, loc in enumerate(res.get(key) or []):
            yield "%s[%d]" % (key, i), loc


def check(log):
    bad = []
    runs = log.get("runs")
    if log.get("version") != "2.1.0" or not isinstance(runs, list) or not runs:
        return ["sarif-version: a 2.1.0 log with a run"]
    if len(runs) > 20:
        bad.append("runs-limit: more than 20 runs in one upload")
    for run in runs:
        driver = run.get("tool", {}).get("driver", {})
        if not driver.get("name"):
            bad.append("tool-name: tool.driver.name is required")
        rules = driver.get("rules", [])
        for r in rules:
            for what in ("shortDescription", "fullDescription"):
                if not (r.get(what) or {}).get("text", "").strip():
                    bad.append("rule-descriptions: rule %s has no %s.text" % (r.get("id"), what))
            if not (r.get("help") or {}).get("text", "").strip():
                bad.append("rule-help: rule %s has no help.text" % r.get("id"))
            if "helpUri" in r and not re.match(r"^[a-z][a-z0-9+.-]*:", r["helpUri"]):
                bad.append("rule-helpuri: rule %s's helpUri is not an absolute URI" % r.get("id"))
        ids = [r.get("id") for r in rules]
        for n, res in enumerate(run.get("results", [])):
            where = "result %d (%s)" % (n, res.get("ruleId"))
            if not (res.get("message") or {}).get("text"):
                bad.append("message-text: %s has no message.text" % where)
            if "ruleIndex" in res and (res["ruleIndex"] >= len(ids) or ids[res["ruleIndex"]] != res.get("ruleId")):
                bad.append("rule-index: %s's ruleIndex does not name its rule" % where)
            if not res.get("locations"):
                bad.append("location-required: %s has no location" % where)
            if len(res.get("locations") or []) > 10:
                bad.append("locations-limit: %s has more than 10 locations" % where)
            if not res.get("partialFingerprints"):
                bad.append("fingerprints: %s has no partialFingerprints" % where)
            for key, loc in locations(res):
                phys = loc.get("physicalLocation") or {}
                uri = (phys.get("artifactLocation") or {}).get("uri")
                if not uri:
                    bad.append("location-uri: %s %s has no artifactLocation.uri" % (where, key))
                    continue
                if not (phys.get("region") or {}).get("startLine"):
                    bad.append("region-required: %s %s has no region.startLine" % (where, key))
                if not ABS_OR_REL.match(uri):
                    bad.append("uri-form: %s %s: '%s' is neither a relative path nor a "
                               "file: URI" % (where, key, uri))
                if not uri.startswith("file:") and re.search(r"(^|/)\.\.(/|$)", uri):
                    bad.append("uri-parent: %s %s: '%s' leaves %%SRCROOT%%" % (where, key, uri))
    return bad


status = 0
for path in sys.argv[1:]:
    with open(path, encoding="utf-8") as f:
        for line in check(json.load(f)):
            print("%s: %s" % (path, line))
            status = 1
sys.exit(status)
