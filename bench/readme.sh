#!/usr/bin/env bash
# bench/readme.sh TABLE README: replaces what lies between the README's
# "<!-- make bench: begin -->" and "<!-- make bench: end -->" lines with the
# table bench/run.sh printed (bench/results/table.md), stamped with the date
# and the machine. The README's performance figures are never typed.
set -euo pipefail
table=$1 readme=$2
[ -s "$table" ] || { echo "readme: no table in $table (run bench/run.sh first)" >&2; exit 1; }
grep -q '^<!-- make bench: begin -->$' "$readme" && grep -q '^<!-- make bench: end -->$' "$readme" ||
  { echo "readme: $readme lacks the make bench markers" >&2; exit 1; }
stamp="Measured by \`make bench\` on $(date -u +%Y-%m-%d), $(nproc) cores shared with the server (and, here, with other work: see the load average)."
python3 - "$table" "$readme" "$stamp" <<'PY'
import sys
table, readme, stamp = sys.argv[1], sys.argv[2], sys.argv[3]
text = open(readme).read()
head, rest = text.split("<!-- make bench: begin -->\n", 1)
_, tail = rest.split("<!-- make bench: end -->\n", 1)
block = stamp + "\n\n" + open(table).read().rstrip("\n") + "\n"
open(readme, "w").write(head + "<!-- make bench: begin -->\n" + block + "<!-- make bench: end -->\n" + tail)
PY
echo "readme: $readme updated from $table"
