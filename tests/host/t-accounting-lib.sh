# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# Shared by t-accounting and t-faults (sourced, not run): every count of one `lbrsnap record`
# run, from its closing lines and from the file it wrote.

lost_total=0

# "[ lbrsnap record: H hook hits: R recorded, F filtered, S sampled out, L lost ]"
num='([0-9]+)'
closing_re="^\[ lbrsnap record: $num hook hits: $num recorded, $num filtered, $num sampled out,"
closing_re+=" $num lost \]\$"
# the JSON summary's records, then its losses by cause, summed over attach points
summary_jq='"\(.records) ringbuf=\([.losses[].ringbuf] | add)
	recursion=\([.losses[].recursion] | add) unread=\([.losses[].unread] | add)
	clobbered=\([.losses[].clobbered] | add) nested=\([.losses[].nested] | add)"'

# check_accounting NAME STATUS ERR DATA: every count of one run, from the closing lines and
# from the file (lbrsnap report --json); prints the run's figures in the log and leaves the
# closing line's numbers in h r f s l
check_accounting() {
	local name=$1 rc=$2 err=$3 data=$4 n lines json file
	check_eq "$name: recorder exit status" 0 "$rc"
	read -r h r f s l <<<"$(sed -En "s/$closing_re/\1 \2 \3 \4 \5/p" "$err")"
	if [ -z "$l" ]; then
		not_ok "$name: closing line" "none in: $(tr '\n' ' ' < "$err")"
		return
	fi
	echo "# $name: $h hits = $r recorded + $f filtered + $s sampled out + $l lost"
	check_eq "$name: hits == recorded + filtered + sampled out + lost" "$h" \
		$((r + f + s + l))
	n=$(sed -n 's/^\[ lbrsnap record: Captured and wrote .* (\([0-9]*\) records) \]$/\1/p' "$err")
	lbrsnap report --json -i "$data" > "$data.json" 2>/dev/null
	json=$(grep -vc '^{"losses"' "$data.json")
	file=$(tail -1 "$data.json" | jq -r "$summary_jq" | tr '\n\t' '  ' | tr -s ' ')
	file=${file% }
	check_eq "$name: records in the file, written line, JSON summary" "$r $r $r" \
		"$json $n ${file%% *}"
	# the LOST lines by cause, in the JSON's words; clobbered records are kept, not lost
	lines=$(awk '
		/^\[ lbrsnap record: LOST [0-9]+: / {
			n = $5; sub(":", "", n)
			if (/ring buffer full/) v["ringbuf"] += n
			else if (/recursion/) v["recursion"] += n
			else if (/never read/) v["unread"] += n
			else if (/records kept/) v["clobbered"] += n
			else if (/programs in progress/) v["nested"] += n
			else v["unknown"] += n
		}
		END {
			printf "ringbuf=%d recursion=%d unread=%d clobbered=%d nested=%d",
			       v["ringbuf"], v["recursion"], v["unread"], v["clobbered"], v["nested"]
			if (v["unknown"]) printf " unknown=%d", v["unknown"]
		}' "$err")
	check_eq "$name: the file's COUNTS == the closing line" "$h $r $f $s" \
		"$(tail -1 "$data.json" |
		   jq -r '"\(.counts.hits) \(.counts.records) \(.counts.filtered) \(.counts.sampled_out)"')"
	check_eq "$name: LOST lines == the file's loss counts" "${file#* }" "$lines"
	check_eq "$name: LOST lines sum to lost; nothing unread" "$l 0" \
		"$(awk -F'[ =]' '{ print $2 + $4 + $6 + $10, $6 }' <<<"$lines")"
	check "$name: no invocation still running when counted" \
		test -z "$(grep 'WARNING: .* still running' "$err")"
	lost_total=$((lost_total + l))
	rm -f "$data" "$data.json"
}

