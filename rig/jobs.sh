# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# A small job pool for the test suite.  Source, do not run.
#
#   job NAME COMMAND...   declare a job (COMMAND: a function or program)
#   run_jobs MAX DIR      run the jobs, MAX at a time, with their files in DIR
#
# Each job runs in the background with RESULTS set to its own results file,
# to which it appends "passed failed skipped" lines (rig/ktap.sh does); its
# stdout and stderr go to files of its own.  A job's output is printed whole
# (a "== NAME" header, its stdout), in the order the jobs were declared, as
# soon as it and every job declared before it have finished.  A job that
# exits non-zero, or leaves no result, counts one failure more; for a job
# with failures the tail of its stderr is shown.  At the end DIR/results
# holds every job's result lines, and DIR/job.I.{name,start,rc,results}
# each job's (rig/results.py reads them).

JOB_NAMES=()
JOB_CMDS=()
JOB_PIDS=()

job() {
	local name="$1"
	shift
	JOB_NAMES+=("$name")
	JOB_CMDS+=("$(printf '%q ' "$@")")
}

# _job_start DIR I: job I in the background; its files are DIR/job.I.*.
_job_start() {
	local f="$1/job.$2" i="$2"
	: > "$f.results"
	printf '%s\n' "${JOB_NAMES[$i]}" > "$f.name"
	date +%s > "$f.start"
	printf 'rig: started: %s\n' "${JOB_NAMES[$i]}" >&2
	(
		# (a subshell of its own: a job may exit)
		(RESULTS="$f.results" && export RESULTS && eval "${JOB_CMDS[$i]}") \
			> "$f.out" 2> "$f.err"
		echo $? > "$f.rc.tmp"
		mv "$f.rc.tmp" "$f.rc"
	) &
	JOB_PIDS[$i]=$!
}

# _job_print DIR I T0: job I's output and accounting.
_job_print() {
	local f="$1/job.$2" i="$2" rc s e
	read -r rc < "$f.rc"
	read -r s < "$f.start"
	e=$(stat -c %Y "$f.rc")
	printf '\n== %s (%ss, at %ss)\n' "${JOB_NAMES[$i]}" "$((e - s))" "$((e - $3))"
	cat "$f.out"
	if [ "$rc" -ne 0 ] || [ ! -s "$f.results" ]; then
		echo "not ok - ${JOB_NAMES[$i]}: the job ended with exit code $rc$( [ -s "$f.results" ] || echo ' and no result')"
		echo "0 1 0" >> "$f.results"
	fi
	if awk '$2 > 0 { bad = 1 } END { exit !bad }' "$f.results"; then
		echo "# ${JOB_NAMES[$i]}: last lines of its log ($f.err):"
		tail -15 "$f.err" | sed 's/^/#   /'
	fi
	cat "$f.results" >> "$1/results"
}

run_jobs() {
	local max="$1" dir="$2" n=${#JOB_NAMES[@]} next=0 printed=0 running=0 i t0
	t0=$(date +%s)
	: > "$dir/results"
	while [ "$printed" -lt "$n" ]; do
		while [ "$running" -lt "$max" ] && [ "$next" -lt "$n" ]; do
			_job_start "$dir" "$next"
			next=$((next + 1)) running=$((running + 1))
		done
		wait -n 2>/dev/null || true
		running=0
		for ((i = printed; i < next; i++)); do
			[ -e "$dir/job.$i.rc" ] && continue
			if kill -0 "${JOB_PIDS[$i]}" 2>/dev/null; then
				running=$((running + 1))
			else
				# Killed before it could say how it ended.
				echo 255 > "$dir/job.$i.rc"
			fi
		done
		while [ "$printed" -lt "$next" ] && [ -e "$dir/job.$printed.rc" ]; do
			_job_print "$dir" "$printed" "$t0"
			printed=$((printed + 1))
		done
	done
	wait
}
