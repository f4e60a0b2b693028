# SPDX-License-Identifier: GPL-2.0-or-later
# bash completion for interbench: options, benchmark and load names, workload files.

# Words of $1 that start with $2, ignoring case (names are case-insensitive).
_interbench_names()
{
	local w
	for w in $1; do
		[[ ${w,,} == "${2,,}"* ]] && COMPREPLY+=("$w")
	done
}

_interbench()
{
	local cur prev benches loads opts
	COMPREPLY=()
	cur=${COMP_WORDS[COMP_CWORD]}
	prev=${COMP_WORDS[COMP_CWORD - 1]}
	benches="Audio Video X Gaming Custom ProAudio Render Input Game AudioGraph Desktop"
	loads="None Video X Burn Write Read Ring Compile Memload Hack Net Custom ProAudio Render Input Command"
	opts="-W --bench --workload -X --exclude-bench -w --load -x --exclude-load --load-cmd -C --custom-cpu
		-I --custom-interval -L --cpu-load --memload-mib --file-mib --fps --quantum -t --time
		--work --period --wake --timer-slack -l --loops-per-ms -b --recalibrate --repeat --instances --dry-run -r --realtime
		--policy --rt-priority --slice --uclamp-min --uclamp-max -B --bench-nice
		-N --load-nice --load-policy -u --uniprocessor --ncpus --vary --vary-order --vary-ready --pm-qos
		-c --console -m --comment --work-dir --json --csv --plot --timeline
		--timeline-max --percentiles
		--trace-above --explain --no-split -q --quiet --compare --runs --restore -h --help -V --version"

	case $prev in
	-W|--bench)	# a name, or an rt-app workload file (FILE.json, a path)
		_interbench_names "$benches" "$cur"
		if [[ $cur == */* || $cur == .* || ${#COMPREPLY[@]} == 0 ]]; then
			mapfile -t -O "${#COMPREPLY[@]}" COMPREPLY < <(compgen -o plusdirs -f \
				-X '!*.json' -- "$cur")
		fi
		return ;;
	-X|--exclude-bench)
		_interbench_names "$benches" "$cur"
		return ;;
	--workload)
		mapfile -t COMPREPLY < <(compgen -f -- "$cur")
		return ;;
	-w|--load|-x|--exclude-load)
		_interbench_names "$loads" "$cur"
		return ;;
	--policy)
		mapfile -t COMPREPLY < <(compgen -W "other batch idle fifo rr deadline" -- "$cur")
		return ;;
	--load-policy)
		mapfile -t COMPREPLY < <(compgen -W "other batch idle" -- "$cur")
		return ;;
	--work-dir)
		mapfile -t COMPREPLY < <(compgen -d -- "$cur")
		return ;;
	--work)
		mapfile -t COMPREPLY < <(compgen -W "cpu loops" -- "$cur")
		return ;;
	--period)
		mapfile -t COMPREPLY < <(compgen -W "swept exact" -- "$cur")
		return ;;
	--wake)
		mapfile -t COMPREPLY < <(compgen -W "timer waker" -- "$cur")
		return ;;
	--vary)
		mapfile -t COMPREPLY < <(compgen -W "policy= slice= uclamp-min= uclamp-max= nice=
			load-nice= load-policy= cpu-load= fps= sysctl: sched-debug: sched-feature:
			preempt sysfs: iosched= scx= exec=" -- "$cur")
		return ;;
	--vary-order)
		mapfile -t COMPREPLY < <(compgen -W "abba blocks" -- "$cur")
		return ;;
	--ncpus)
		mapfile -t COMPREPLY < <(compgen -W "1 1,2 1,2,4 1,2,4,8" -- "$cur")
		return ;;
	--json|--csv|--plot|--timeline)
		mapfile -t COMPREPLY < <(compgen -f -- "$cur")
		return ;;
	-t|--time|-l|--loops-per-ms|-L|--cpu-load|-B|--bench-nice|-N|--load-nice|-C|\
	--custom-cpu|-I|--custom-interval|-m|--comment|--load-cmd|--repeat|--instances|--rt-priority|--pm-qos|\
	--trace-above|--timer-slack|--memload-mib|--file-mib|--fps|--quantum|--slice|--uclamp-min|--uclamp-max|\
	--timeline-max|--runs)
		return ;;
	esac
	if [[ $cur == -* ]]; then
		mapfile -t COMPREPLY < <(compgen -W "$opts" -- "$cur")
	elif [[ " ${COMP_WORDS[*]} " == *" --compare "* ]]; then
		mapfile -t COMPREPLY < <(compgen -f -- "$cur")
	fi
}
complete -F _interbench interbench
