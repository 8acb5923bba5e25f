# verify_slurm.sh - verify.sh's Slurm backend (sourced by scripts/verify.sh with --farm slurm).
# It implements verify.sh's runner interface (slurm_run, slurm_rerun, slurm_ran, slurm_col,
# slurm_why; see "The runner interface" there): job I (0 .. njobs-1, built by verify.sh with
# job_argv) leaves $tmp/I.out (its output), $tmp/I.rc (its exit status) and $tmp/I.secs; the
# job list, the result parsing, the summary, the JUnit XML and the coverage merge stay in
# verify.sh. This backend adds $tmp/I.id (the Slurm job_task id), $tmp/I.state (the task's
# final Slurm state) and $tmp/I.host (the node it ran on).
#
# One array task per job: sbatch --array=0-(njobs-1)%K of $tmp/task.sh, which runs the command
# of $tmp/<task id>.cmd. $tmp is in the waves directory and the commands name the build
# directory: both must be on a filesystem the nodes share, at the same path.
# No accounting store is assumed (sacct): the states come from `scontrol show job` while
# slurmctld keeps the tasks (MinJobAge, 300 s by default) and from the task's own files.
# shellcheck shell=bash disable=SC2154
# (SC2154: tmp, njobs, jobs, job_*, coverage, root, partition, ... are verify.sh's)

# slurm_check: the Slurm clients are there (else usage error, exit 2).
slurm_check() {
  local b
  for b in sbatch scontrol scancel squeue; do
    command -v "$b" >/dev/null ||
      usage "--farm slurm: '$b' not found (install slurm-client: bash scripts/deps.sh)"  # quoting: not user text
  done
}

slurm_jobs=()   # the Slurm jobs submitted, cancelled on Ctrl-C

# slurm_prepare: the task script, and each job's command (with its coverage file).
slurm_prepare() {
  local i cmd
  cat >"$tmp/task.sh" <<TASK
#!/usr/bin/env bash
# One run x seed of a pinet verify.sh regression on a Slurm node: runs \$d/<task id>.cmd.
d=$tmp
i=\$SLURM_ARRAY_TASK_ID
echo "\${SLURMD_NODENAME:-\$HOSTNAME}" >"\$d/\$i.host"
export SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1
start=\$EPOCHREALTIME rc=0
bash "\$d/\$i.cmd" >"\$d/\$i.out" 2>&1 || rc=\$?
awk -v a="\$start" -v b="\$EPOCHREALTIME" 'BEGIN { printf "%.1f", b - a }' >"\$d/\$i.secs"
echo \$rc >"\$d/\$i.rc.part" && mv "\$d/\$i.rc.part" "\$d/\$i.rc"
exit \$rc
TASK
  for ((i = 0; i < njobs; i++)); do
    job_argv "$i"
    {
      printf 'exec env PINET_FCOV_FILE=%q ' "$(job_fcov "$i")"
      [ "$coverage" -eq 1 ] && printf 'PINET_COVERAGE_FILE=%q ' "$(job_cov "$i")"
      printf '%q ' "${cmd[@]}"
      echo
    } >"$tmp/$i.cmd"
  done
}

# slurm_submit ARRAY: submits the tasks ARRAY (sbatch --array syntax); sets slurm_job.
slurm_submit() {
  local out extra=()
  # shellcheck disable=SC2206
  [ -n "$sbatch_args" ] && extra=($sbatch_args)
  if ! out=$(sbatch --parsable --array="$1" --job-name=pinet-verify --chdir="$root" \
      --output="$tmp/slurm-%a.log" ${partition:+--partition="$partition"} \
      ${time_limit:+--time="$time_limit"} "${extra[@]}" "$tmp/task.sh" 2>&1); then
    echo "verify: sbatch failed: $out" >&2
    exit 3
  fi
  slurm_job=${out%%;*}
  slurm_jobs+=("$slurm_job")
}

# slurm_states JOB: "task state reason" per array task slurmctld still knows (ranges of pending
# tasks, "2-7%2" or "3,5", expanded).
slurm_states() {
  scontrol -o show job "$1" 2>/dev/null | awk '
    { t = ""; s = ""; why = "None"
      for (k = 1; k <= NF; k++) {
        if ($k ~ /^ArrayTaskId=/) t = substr($k, 13)
        else if ($k ~ /^JobState=/) s = substr($k, 10)
        else if ($k ~ /^Reason=/) why = substr($k, 8)
      }
      if (t == "" || s == "") next
      sub(/%.*/, "", t)
      n = split(t, part, ",")
      for (p = 1; p <= n; p++) {
        step = 1
        if (split(part[p], st, ":") == 2) { part[p] = st[1]; step = st[2] }
        if (split(part[p], r, "-") == 2) { for (x = r[1] + 0; x <= r[2] + 0; x += step) print x, s, why }
        else print part[p], s, why
      }
    }'
}

# slurm_finished STATE: Slurm is done with a task in that state.
slurm_finished() {
  case "$1" in
    PENDING|RUNNING|COMPLETING|CONFIGURING|SUSPENDED|REQUEUED|REQUEUE_FED|REQUEUE_HOLD|RESIZING|SIGNALING|STAGE_OUT|STOPPED) return 1 ;;
  esac
  return 0
}

# slurm_ran I: task I ran to its end (its result is the cosim's): Slurm says COMPLETED or
# FAILED (the cosim's non-zero exit) and the task wrote its exit status. Anything else
# (CANCELLED, TIMEOUT, NODE_FAIL, OUT_OF_MEMORY, never started, ...) is an error row.
slurm_ran() {
  local s
  s=$(cat "$tmp/$1.state" 2>/dev/null)
  [[ "$s" == COMPLETED || "$s" == FAILED ]] && [ -f "$tmp/$1.rc" ]
}

# slurm_state I: task I's final Slurm state, and "(never started)" when it never ran on a node
# (or, when Slurm says it ended, that its files are missing here).
slurm_state() {
  local s
  s=$(cat "$tmp/$1.state")
  if [[ "$s" == COMPLETED || "$s" == FAILED ]] && [ ! -f "$tmp/$1.rc" ]; then
    s+=" (its files are not in $tmp: do the nodes share this directory?)"
  elif [ ! -f "$tmp/$1.host" ] && [ "$s" != NOT_STARTED ]; then
    s+=" (never started)"
  fi
  echo "$s"
}

# slurm_col I: after task I's summary row: its job_task id, and its state if it did not run to
# its end.
slurm_col() {
  printf '  %s' "$(cat "$tmp/$1.id")"
  slurm_ran "$1" || printf ' %s' "$(slurm_state "$1")"
}

# slurm_why I: why task I did not run to its end: its id, state and node, and the last lines
# Slurm's own log of it has (the task's output follows).
slurm_why() {
  local host
  host=$(cat "$tmp/$1.host" 2>/dev/null)
  echo "verify: ${job_name[$1]}: Slurm task $(cat "$tmp/$1.id") $(slurm_state "$1")${host:+ on node $host}, no result:"
  tail -n 2 "$tmp/slurm-$1.log" 2>/dev/null
}

# slurm_failed I: task I is a failure so far (for the progress line).
slurm_failed() {
  slurm_ran "$1" || return 0
  [ "$(cat "$tmp/$1.rc")" -eq 0 ] && result_line "$1" | grep -q '^PASS ' && return 1
  return 0
}

# slurm_wait JOB QUIET I...: waits until Slurm is done with the tasks I... of JOB, writing each
# one's I.state and I.id as it ends (and, unless QUIET, its line, as the local pool does), and a
# progress line every PINET_VERIFY_TICK seconds (default 60): pending, running, done, failed.
slurm_wait() {
  local job=$1 quiet=$2 i s n_pend n_run n_done n_fail grace=0
  shift 2
  local -a ids=("$@")
  local -A state=() finished=() failed=() reason=()
  local t0=$SECONDS next_tick=$((SECONDS + ${PINET_VERIFY_TICK:-60}))
  while :; do
    state=() reason=()
    while read -r i s r; do
      state[$i]=$s
      # why tasks wait, beyond the ordinary (their turn, the array's throttle, free CPUs)
      [ "$s" = PENDING ] && [[ ! "$r" =~ ^(None|Priority|Resources|JobArrayTaskLimit)$ ]] && reason[$r]=1
    done < <(slurm_states "$job")
    n_pend=0 n_run=0 n_done=0 n_fail=0
    for i in "${ids[@]}"; do
      if [ -z "${finished[$i]:-}" ]; then
        s=${state[$i]:-}
        if [ -n "$s" ] && ! slurm_finished "$s"; then
          [ "$s" = PENDING ] && n_pend=$((n_pend + 1)) || n_run=$((n_run + 1))
          continue
        fi
        # Ended (or unknown to slurmctld). A task that completed may take a moment to show
        # its files on a network filesystem: wait up to 10 polls for them.
        if [[ "$s" == COMPLETED || "$s" == FAILED ]] && [ ! -f "$tmp/$i.rc" ] && [ $grace -lt 10 ]; then
          grace=$((grace + 1)) n_run=$((n_run + 1))
          continue
        fi
        if [ -z "$s" ]; then
          # slurmctld forgot it (a pending task cancelled, or older than MinJobAge)
          if [ -f "$tmp/$i.rc" ]; then s=COMPLETED
          elif [ -f "$tmp/$i.host" ]; then s=UNKNOWN
          else s=NOT_STARTED; fi
        fi
        echo "$s" >"$tmp/$i.state"
        echo "${job}_$i" >"$tmp/$i.id"
        [ -f "$tmp/$i.out" ] || : >"$tmp/$i.out"
        [ -f "$tmp/$i.secs" ] || echo 0.0 >"$tmp/$i.secs"
        finished[$i]=1
        slurm_failed "$i" && failed[$i]=1
        if [ "$quiet" -eq 0 ]; then
          if slurm_ran "$i"; then
            printf 'verify: %-22s %s (%ss, slurm %s)\n' "${job_name[$i]}" "$(result_line "$i" || true)" \
              "$(cat "$tmp/$i.secs")" "${job}_$i"
          else
            printf 'verify: %-22s Slurm task %s %s\n' "${job_name[$i]}" "${job}_$i" "$(slurm_state "$i")"
          fi
        fi
      fi
      n_done=$((n_done + 1))
      [ -n "${failed[$i]:-}" ] && n_fail=$((n_fail + 1))
    done
    [ $n_done -eq ${#ids[@]} ] && return 0
    if [ "$quiet" -eq 0 ] && [ $SECONDS -ge $next_tick ]; then
      local line k p
      line="verify: $(( (SECONDS - t0) / 60 )) min: $n_done of ${#ids[@]} runs done, $n_run running, $n_pend pending, $n_fail failed so far"
      [ ${#reason[@]} -gt 0 ] && line+="; pending because: $(IFS=,; echo "${!reason[*]}")"
      for k in "${ids[@]}"; do
        [ "${state[$k]:-}" = RUNNING ] && [ -z "${finished[$k]:-}" ] && [ "${job_kind[$k]}" != default ] || continue
        p=$(grep -a -o '[0-9]*% ([0-9]* of [0-9]* cycles[^)]*)' "$tmp/$k.out" 2>/dev/null | tail -n 1)
        line+="; ${job_name[$k]} ${p:-started}"
      done
      echo "$line"
      next_tick=$((SECONDS + ${PINET_VERIFY_TICK:-60}))
    fi
    sleep "${PINET_VERIFY_POLL:-2}"
  done
}

# slurm_run: every job, one array task each, at most $jobs at a time.
slurm_run() {
  slurm_prepare
  slurm_submit "0-$((njobs - 1))%$jobs"
  echo "verify: $njobs runs on Slurm: job $slurm_job (array 0-$((njobs - 1)), $jobs at a time${partition:+, partition $partition})"
  local ids=()
  for ((i = 0; i < njobs; i++)); do ids+=("$i"); done
  slurm_wait "$slurm_job" 0 "${ids[@]}"
}

# slurm_rerun I: job I once more, alone (a one-task array of the same index), into I.out, I.rc
# and I.secs (its first task's id, state and node are kept: the summary's row is the first run's).
slurm_rerun() {
  local i=$1 f
  for f in id state host; do [ -f "$tmp/$i.$f" ] && cp "$tmp/$i.$f" "$tmp/$i.first.$f"; done
  rm -f "$tmp/$i.rc" "$tmp/$i.secs" "$tmp/$i.host"
  slurm_submit "$i"
  slurm_wait "$slurm_job" 1 "$i"
  slurm_ran "$i" || echo "$(cat "$tmp/$i.rc" 2>/dev/null || echo -) (Slurm task ${slurm_job}_$i $(cat "$tmp/$i.state"))" >"$tmp/$i.rc"
  for f in id state host; do
    rm -f "$tmp/$i.$f"
    [ -f "$tmp/$i.first.$f" ] && mv "$tmp/$i.first.$f" "$tmp/$i.$f"
  done
  return 0
}

# slurm_cancel: cancels every job submitted (Ctrl-C) and waits until Slurm has none of them.
slurm_cancel() {
  [ ${#slurm_jobs[@]} -gt 0 ] || return 0
  scancel "${slurm_jobs[@]}" 2>/dev/null
  local k
  for ((k = 0; k < 100; k++)); do
    [ -z "$(squeue -h -j "$(IFS=,; echo "${slurm_jobs[*]}")" -o %i 2>/dev/null)" ] && break
    sleep 0.3
  done
  echo "verify: interrupted: cancelled Slurm job(s) ${slurm_jobs[*]}" >&2
}
