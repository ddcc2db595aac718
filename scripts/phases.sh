# Phase times of the README's two commands (sourced by scripts/test, scripts/demo and
# scripts/build): each phase's wall time is appended to the file $CADASTRE_PHASES, and
# phases_report prints them on one line, so a newcomer sees where the time went.

# phases_begin: the first caller creates the file; scripts/build, called by the others,
# appends to theirs.
phases_begin() {
  if [[ -z ${CADASTRE_PHASES:-} ]]; then
    CADASTRE_PHASES=$(mktemp /tmp/cadastre-phases.XXXXXX)
    export CADASTRE_PHASES
    _phases_owner=1
  fi
}

# phase NAME COMMAND...: runs COMMAND and records its wall time under NAME, failed or not
# (a failing command still fails the caller).
phase() {
  local name=$1 t0=$SECONDS rc=0
  shift
  "$@" || rc=$?
  phase_since "$name" "$t0"
  return "$rc"
}

# phase_since NAME T0: records the time since $SECONDS was T0 (a phase that is not one command).
phase_since() {
  [[ -n ${CADASTRE_PHASES:-} ]] && echo "$1 $((SECONDS - $2))" >>"$CADASTRE_PHASES"
  return 0
}

# phases_report: "phases: packages 1m24s, configure 3s, build 10m02s, tests 9m40s; total ..."
# from the caller that began the file, which it then removes.
phases_report() {
  [[ -n ${_phases_owner:-} && -f ${CADASTRE_PHASES:-} ]] || return 0
  awk '
    function t(s) { return s >= 60 ? sprintf("%dm%02ds", s / 60, s % 60) : s "s" }
    { line = line (NR > 1 ? ", " : "") $1 " " t($2); total += $2 }
    END { if (NR) printf "phases (wall time): %s; total %s\n", line, t(total) }
  ' "$CADASTRE_PHASES" >&2
  rm -f "$CADASTRE_PHASES"
}
