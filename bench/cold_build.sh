#!/usr/bin/env bash
# The README's two commands as a newcomer meets them: a fresh clone of HEAD, an empty
# ccache, two jobs. `test` runs ./scripts/test to its end; `demo` runs ./scripts/demo until
# it serves (its phase line is printed just before the URLs), then stops it.
# Each run prints its phase line; at the end, the median of the totals.
#
#   bench/cold_build.sh test [RUNS]     (default 3 runs)
#   bench/cold_build.sh demo [RUNS]
#
# The Debian packages are whatever the machine has: on a machine that already has them the
# "packages" phase is the check alone (docs/operations.md gives the install's own time).
# Runs one after another (two at once would share the two cores); nothing is left behind
# but the log of each run in $TMPDIR.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
what=${1:?"usage: bench/cold_build.sh test|demo [RUNS]"}
runs=${2:-3}
[[ $what == test || $what == demo ]] || { echo "usage: bench/cold_build.sh test|demo [RUNS]" >&2; exit 2; }

totals=()
for run in $(seq 1 "$runs"); do
  work=$(mktemp -d /tmp/cadastre-cold.XXXXXX)
  chmod 755 "$work"  # the cluster runs as postgres, under this folder
  log=$(mktemp /tmp/cadastre-cold-$what-$run.XXXXXX.log)
  git clone -q "$here" "$work/repo"
  export CCACHE_DIR=$work/ccache  # empty: nothing compiled before counts
  t0=$SECONDS
  if [[ $what == test ]]; then
    (cd "$work/repo" && ./scripts/test) >"$log" 2>&1 || { echo "run $run: ./scripts/test failed, see $log" >&2; exit 1; }
  else
    # Own ports, so a demo already running elsewhere on the machine is left alone.
    (cd "$work/repo" && CADASTRE_PORT=18080 CADASTRE_PLATFORM_PORT=18070 CADASTRE_GATEWAY_PORT=18090 \
      exec ./scripts/demo) >"$log" 2>&1 </dev/null &
    demo=$!
    until grep -q '^phases (wall time)' "$log"; do
      kill -0 "$demo" 2>/dev/null || { echo "run $run: ./scripts/demo stopped, see $log" >&2; exit 1; }
      sleep 2
    done
    kill -TERM "$demo"  # scripts/demo stops its services and cluster (a background job ignores INT)
    wait "$demo" || true
  fi
  elapsed=$((SECONDS - t0))
  totals+=("$elapsed")
  echo "run $run ($what): $(grep '^phases (wall time)' "$log" | tail -1) [clone to end: ${elapsed}s; log $log]"
  rm -rf "$work"
done
median=$(printf '%s\n' "${totals[@]}" | sort -n | awk '{a[NR] = $1} END {print a[int((NR + 1) / 2)]}')
printf '%s: median of %d cold runs %dm%02ds\n' "$what" "$runs" $((median / 60)) $((median % 60))
