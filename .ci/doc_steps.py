"""Reads the steps a doc page marks and checks what they produced (used by .ci/add-a-job).

script PAGE
    Prints the page as one shell script, in the page's order: each ``<!-- run -->`` block's lines as
    they are, each ``<!-- file: PATH -->`` block as a command writing PATH, and each ``<!-- insert: PATH
    after: ANCHOR -->`` block as a command inserting it, both relative to the directory the script is
    in at that point (so a page may ``cd`` into the repository it just created). A ``<!-- output -->``
    block right after a ``<!-- run -->`` block is what that block prints: the script captures the
    block's standard output, prints it, and stops with a diff when it differs (trailing spaces aside),
    so the page shows what the commands really print.
expect-output ACTUAL WHERE
    Compares the file ACTUAL with standard input (the page's output block at WHERE); prints ACTUAL.
insert PATH ANCHOR
    Inserts standard input after the first line of PATH containing ANCHOR (as ``apply`` does).
team-schedules ASSEMBLY FORBIDDEN JOB=EXPRESSION@ZONE...
    Checks that the cloud assembly holds exactly these schedules, and that no template names any of
    the comma-separated FORBIDDEN words (the example jobs' ids).
apply PAGE ROOT
    Writes each ``<!-- file: PATH -->`` code block to ROOT/PATH, inserts each ``<!-- insert: PATH after:
    ANCHOR -->`` block on the line after the first line of ROOT/PATH containing ANCHOR (indented like the
    line that follows it), and prints the lines of every ``<!-- run -->`` block as a shell script.
compare-schedules BEFORE AFTER JOB ZONE EXPRESSION
    Checks that the cloud assembly AFTER holds one schedule named JOB with that zone and expression, and
    that every other schedule is identical to BEFORE's.
"""

import json
import shlex
import pathlib
import re
import sys

MARK = re.compile(r"^<!-- (file|insert|run|output)(?::\s*(.*?))? -->\s*$")


def blocks(page):
    """Yields (kind, argument, lines of the fenced block that follows the marker)."""
    lines = pathlib.Path(page).read_text(encoding="utf-8").splitlines()
    i = 0
    while i < len(lines):
        mark = MARK.match(lines[i])
        if mark:
            if i + 1 >= len(lines) or not lines[i + 1].startswith("```"):
                sys.exit(f"{page}:{i + 1}: a <!-- {mark.group(1)} --> marker must precede a fenced code block")
            end = i + 2
            while end < len(lines) and lines[end] != "```":
                end += 1
            yield mark.group(1), mark.group(2), lines[i + 2:end]
            i = end
        i += 1


def apply(page, root):
    root = pathlib.Path(root)
    commands = []
    for kind, argument, body in blocks(page):
        if kind == "file":
            target = root / argument
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text("\n".join(body) + "\n", encoding="utf-8")
        elif kind == "insert":
            path, anchor = re.fullmatch(r"(\S+) after: (.+)", argument).groups()
            insert(root / path, anchor, body)
        elif kind == "run":
            commands.extend(body)
    if not commands:
        sys.exit(f"{page}: no <!-- run --> blocks")
    print("\n".join(commands))


def script(page):
    here = pathlib.Path(__file__).resolve()
    out = []
    marked = list(blocks(page))
    for n, (kind, argument, body) in enumerate(marked):
        end = f"PUNCTUAL_PAGE_BLOCK_{n}"
        if any(line == end for line in body):
            sys.exit(f"{page}: a block holds the line {end}")
        shown = marked[n + 1] if n + 1 < len(marked) and marked[n + 1][0] == "output" else None
        if kind == "output":
            if n == 0 or marked[n - 1][0] != "run":
                sys.exit(f"{page}: an <!-- output --> block must follow a <!-- run --> block")
            continue
        if kind == "run" and shown is not None:
            # The same shell runs the block (a cd in it holds for what follows); only its stdout is compared.
            out.append('punctual_page_out="$(mktemp)"')
            out.append("{")
            out.extend(body)
            out.append('} > "$punctual_page_out"')
            where = f"{page}: the output after the block starting '{body[0] if body else ''}'"
            out.append(f"python3 {shlex.quote(str(here))} expect-output \"$punctual_page_out\" {shlex.quote(where)} <<'{end}'")
            out.extend(shown[2])
            out.append(end)
            continue
        if kind == "file":
            out.append(f"mkdir -p \"$(dirname {shlex.quote(argument)})\"")
            out.append(f"cat > {shlex.quote(argument)} <<'{end}'")
            out.extend(body)
            out.append(end)
        elif kind == "insert":
            path, anchor = re.fullmatch(r"(\S+) after: (.+)", argument).groups()
            out.append(f"python3 {shlex.quote(str(here))} insert {shlex.quote(path)} {shlex.quote(anchor)} <<'{end}'")
            out.extend(body)
            out.append(end)
        else:
            out.extend(body)
    if not any(kind == "run" for kind, _, _ in blocks(page)):
        sys.exit(f"{page}: no <!-- run --> blocks")
    print("\n".join(out))


def expect_output(actual, where, expected):
    got = pathlib.Path(actual).read_text(encoding="utf-8")
    sys.stdout.write(got)

    def normal(text):
        return "\n".join(line.rstrip() for line in text.splitlines()).strip("\n")

    if normal(got) != normal("\n".join(expected)):
        import difflib
        diff = difflib.unified_diff(normal("\n".join(expected)).splitlines(), normal(got).splitlines(),
                                    "the page shows", "the commands printed", lineterm="")
        sys.exit(f"{where} differs from what the commands printed:\n" + "\n".join(diff))


def team_schedules(assembly, forbidden, expected):
    found = schedules(assembly)
    want = {}
    for spec in expected:
        job, rest = spec.split("=", 1)
        expression, zone = rest.rsplit("@", 1)
        want[json.dumps(job)] = (expression, zone)
    got = {name: (p.get("ScheduleExpression"), p.get("ScheduleExpressionTimezone")) for name, p in found.items()}
    if got != want:
        sys.exit(f"{assembly}: schedules {got}, expected exactly {want}")
    words = [w for w in forbidden.split(",") if w]
    for template in pathlib.Path(assembly).glob("*.template.json"):
        text = template.read_text(encoding="utf-8")
        named = [w for w in words if re.search(r"(?<![A-Za-z0-9-])" + re.escape(w) + r"(?![A-Za-z0-9-])", text)]
        if named:
            sys.exit(f"{template}: names {named}, which the team's stage must not hold")
    print(f"[ci/add-a-job] the team's stage holds exactly {sorted(want)} and names no example job")


def insert(target, anchor, body):
    lines = target.read_text(encoding="utf-8").splitlines()
    at = next((n for n, line in enumerate(lines) if anchor in line), None)
    if at is None:
        sys.exit(f"{target}: the anchor '{anchor}' the page inserts after is not there")
    following = lines[at + 1] if at + 1 < len(lines) else ""
    indent = following[: len(following) - len(following.lstrip())]
    lines[at + 1:at + 1] = [indent + line for line in body]
    target.write_text("\n".join(lines) + "\n", encoding="utf-8")


def schedules(assembly):
    """Every AWS::Scheduler::Schedule of the assembly's templates, by its Name."""
    found = {}
    for template in pathlib.Path(assembly).glob("*.template.json"):
        resources = json.loads(template.read_text(encoding="utf-8")).get("Resources", {})
        for resource in resources.values():
            if resource.get("Type") == "AWS::Scheduler::Schedule":
                properties = resource["Properties"]
                found[json.dumps(properties.get("Name"), sort_keys=True)] = properties
    return found


def compare_schedules(before, after, job, zone, expression):
    old, new = schedules(before), schedules(after)
    if not old:
        sys.exit(f"{before}: no schedules at all; is it a synthesised dev stage?")
    key = json.dumps(job)
    if key not in new:
        sys.exit(f"{after}: no schedule named {job}; found {sorted(new)}")
    if key in old:
        sys.exit(f"{before}: already holds a schedule named {job}; the page must add a new job")
    added = new[key]
    if added.get("ScheduleExpressionTimezone") != zone or added.get("ScheduleExpression") != expression:
        sys.exit(f"{job}: deployed as {added.get('ScheduleExpression')} in {added.get('ScheduleExpressionTimezone')},"
                 f" expected {expression} in {zone}")
    changed = sorted(name for name in old if new.get(name) != old[name])
    if changed or len(new) != len(old) + 1:
        sys.exit(f"adding {job} changed other schedules: {changed} ({len(old)} before, {len(new)} after)")
    print(f"[ci/add-a-job] {job}: {expression} in {zone}; the other {len(old)} schedules unchanged")


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "script":
        script(sys.argv[2])
    elif len(sys.argv) == 4 and sys.argv[1] == "expect-output":
        expect_output(sys.argv[2], sys.argv[3], sys.stdin.read().splitlines())
    elif len(sys.argv) == 4 and sys.argv[1] == "insert":
        insert(pathlib.Path(sys.argv[2]), sys.argv[3], sys.stdin.read().splitlines())
    elif len(sys.argv) >= 5 and sys.argv[1] == "team-schedules":
        team_schedules(sys.argv[2], sys.argv[3], sys.argv[4:])
    elif len(sys.argv) == 4 and sys.argv[1] == "apply":
        apply(sys.argv[2], sys.argv[3])
    elif len(sys.argv) == 7 and sys.argv[1] == "compare-schedules":
        compare_schedules(*sys.argv[2:])
    else:
        sys.exit(__doc__)
