"""check_junit.py FILE [TESTS FAILURES ERRORS] - FILE has the structure of the common JUnit XML
schema (junit-10.xsd, as Jenkins and GitLab read it): <testsuites> of <testsuite name tests
failures errors [time]>, each of <testcase name classname [time]> whose children are among
failure, error, skipped, system-out, system-err (failure/error with a message); the counts in
the attributes equal the elements; optionally equal to the given numbers. Exit 1 with the reason."""
import sys
import xml.etree.ElementTree as ET

def fail(msg):
    print(f"check_junit: {sys.argv[1]}: {msg}")
    sys.exit(1)

try:
    root = ET.parse(sys.argv[1]).getroot()
except (ET.ParseError, OSError) as e:
    fail(f"not XML: {e}")
if root.tag != "testsuites":
    fail(f"root element <{root.tag}>, expected <testsuites>")
tot = [0, 0, 0]
for suite in root:
    if suite.tag != "testsuite":
        fail(f"<{suite.tag}> inside <testsuites>")
    for a in ("name", "tests", "failures", "errors"):
        if a not in suite.attrib:
            fail(f"testsuite without '{a}'")
    cases = fails = errors = 0
    for case in suite:
        if case.tag in ("properties", "system-out", "system-err"):
            continue
        if case.tag != "testcase":
            fail(f"<{case.tag}> inside <testsuite>")
        for a in ("name", "classname"):
            if not case.get(a):
                fail(f"testcase without '{a}'")
        if "time" in case.attrib:
            float(case.get("time"))
        cases += 1
        for child in case:
            if child.tag not in ("failure", "error", "skipped", "system-out", "system-err"):
                fail(f"<{child.tag}> inside <testcase>")
            if child.tag in ("failure", "error") and not child.get("message"):
                fail(f"<{child.tag}> without a message in {case.get('name')}")
        fails += sum(1 for c in case if c.tag == "failure")
        errors += sum(1 for c in case if c.tag == "error")
    if (int(suite.get("tests")), int(suite.get("failures")), int(suite.get("errors"))) != (cases, fails, errors):
        fail(f"testsuite counts {suite.get('tests')}/{suite.get('failures')}/{suite.get('errors')} "
             f"but {cases} cases, {fails} failures, {errors} errors")
    tot = [tot[0] + cases, tot[1] + fails, tot[2] + errors]
if len(sys.argv) == 5 and tot != [int(x) for x in sys.argv[2:5]]:
    fail(f"{tot[0]} cases, {tot[1]} failures, {tot[2]} errors; expected {sys.argv[2:5]}")
print(f"check_junit: {tot[0]} cases, {tot[1]} failures, {tot[2]} errors: the structure holds")
