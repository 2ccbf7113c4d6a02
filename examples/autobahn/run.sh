#!/usr/bin/env bash
# Run the Autobahn|Testsuite fuzzing client (wstest -m fuzzingclient) against a ledgerd
# WebSocket port, then summarize the report per section (summarize.py beside this file).
#
#   examples/autobahn/run.sh [LEDGERD_BINARY] [CASES...]
#
# Defaults: target/debug/ledgerd, every case but 12.* and 13.* (permessage-deflate, which
# ledgerd does not negotiate). Reports go to $OUT (default /tmp/ledgerd-autobahn/reports).
#
# autobahntestsuite 25.10.1 (PyPI) is Python 2.7 code: print statements and implicit relative
# imports, so Python 3.11 cannot import it. It installs, with its pinned dependencies
# (Twisted 19.10, autobahn 0.10.9), into a --target directory for a Python 2.7 interpreter:
# $PY2, else python2.7, else pyenv's 2.7.18. The directory is loaded with site.addsitedir so
# that zope.interface's namespace package (.pth file) works.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
bin=${1:-target/debug/ledgerd}
shift || true
out=${OUT:-/tmp/ledgerd-autobahn}
py2=${PY2:-}
if [ -z "$py2" ]; then
  if python2.7 -c '' 2>/dev/null; then py2=python2.7; else py2="$HOME/.pyenv/versions/2.7.18/bin/python"; fi
fi
mkdir -p "$out"
if [ ! -d "$out/site/autobahntestsuite" ]; then
  "$py2" -m pip install -q --disable-pip-version-check --target "$out/site" autobahntestsuite==25.10.1
fi

"$bin" serve --listen 127.0.0.1:0 --ephemeral >"$out/server.out" 2>"$out/server.err" &
server=$!
trap 'kill $server 2>/dev/null || true' EXIT
for _ in $(seq 100); do
  addr=$(grep -o '127\.0\.0\.1:[0-9]*' "$out/server.out" | head -1 || true)
  [ -n "$addr" ] && break
  sleep 0.1
done
[ -n "$addr" ] || { echo "ledgerd did not start" >&2; exit 1; }

cases='"*"'
if [ $# -gt 0 ]; then cases=$(printf '"%s",' "$@"); cases=${cases%,}; fi
rm -rf "$out/reports"
cat >"$out/spec.json" <<SPEC
{
  "outdir": "$out/reports",
  "servers": [{"agent": "ledgerd", "url": "ws://$addr"}],
  "cases": [$cases],
  "exclude-cases": ["12.*", "13.*"],
  "exclude-agent-cases": {}
}
SPEC
"$py2" -c "import site, sys; site.addsitedir('$out/site'); sys.argv[0] = 'wstest';
from autobahntestsuite.wstest import run; run()" -m fuzzingclient -s "$out/spec.json" >"$out/wstest.log" 2>&1
python3 "$here/summarize.py" "$out/reports" ledgerd
