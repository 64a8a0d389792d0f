#!/usr/bin/env python3
"""merge_recordings.py OUT PART.json [PART.json ...] — joins the recordings that device-check.sh's bench steps
wrote (one per suite, GPU suites first) into one gpulab recording: the first part's context, every part's results
in order. The context says which suites ran and which were stopped early, so one file can be opened with
`gpulab --open`. Parts that are missing, empty or unreadable are named on stderr and left out (a step killed
before its first save). The output is written atomically (a temporary file beside it, then a rename).
Exit status: 0 when at least one part was merged, 1 otherwise."""
import json
import os
import sys
import tempfile


def main(argv):
    if len(argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    out, parts = argv[1], argv[2:]
    merged = None
    notes = []
    for path in parts:
        suite = os.path.splitext(os.path.basename(path))[0]
        try:
            with open(path) as f:
                doc = json.load(f)
            if doc.get("format") != "gpulab-recording" or not isinstance(doc.get("results"), list):
                raise ValueError("not a gpulab recording")
        except (OSError, ValueError) as e:
            print("merge_recordings: leaving out %s: %s" % (path, e), file=sys.stderr)
            notes.append("%s: no recording (%s)" % (suite, e.__class__.__name__))
            continue
        ctx = doc.get("context", {})
        # "complete" is false for a part that was stopped or killed (a SIGKILL leaves no "cancelled" behind);
        # files from before the field existed count as complete.
        part_complete = doc.get("complete", True) is not False and "cancelled" not in ctx
        state = "complete" if part_complete else "stopped early"
        notes.append("%s: %d results, %s s, %s" % (ctx.get("suite", suite), len(doc["results"]),
                                                   ctx.get("duration_s", "?").split(".")[0], state))
        if merged is None:
            merged = doc
            merged["context"] = dict(ctx)
            all_complete = True
            suites = [ctx.get("suite", suite)]
            duration = 0.0
        else:
            merged["results"].extend(doc["results"])
            suites.append(ctx.get("suite", suite))
            if "cancelled" in ctx:
                merged["context"]["cancelled"] = ctx["cancelled"]
        all_complete = all_complete and part_complete
        try:
            duration += float(ctx.get("duration_s", "0"))
        except ValueError:
            pass
    if merged is None:
        print("merge_recordings: no part could be read", file=sys.stderr)
        return 1
    merged["complete"] = all_complete  # the whole is complete only when every part is
    c = merged["context"]
    c["suite"] = suites[0] if len(suites) == 1 else "+".join(suites)
    c["duration_s"] = "%.3f" % duration
    c["device_check_parts"] = "; ".join(notes)
    folder = os.path.dirname(os.path.abspath(out))
    fd, tmp = tempfile.mkstemp(prefix=".merge-", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(fd, "w") as f:
            json.dump(merged, f, indent=1, ensure_ascii=False)
            f.write("\n")
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)  # mkstemp makes it private; a recording is for sharing
        os.replace(tmp, out)
    except BaseException:
        os.unlink(tmp)
        raise
    print("merge_recordings: %s: %d results from %s" % (out, len(merged["results"]), ", ".join(suites)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
