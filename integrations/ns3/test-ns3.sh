#!/bin/sh
# test-ns3.sh [PROG] - smartq's ns-3 schedulers against MapScheduler
#
# PROG is the built integrations/ns3/test-ns3.cc; without it (ns-3 is not
# installed) the test says it skipped and passes. For every exact
# backend: the storm's pop hash (with two scheduler hand-overs) and the
# point-to-point + UDP echo ASCII trace must equal MapScheduler's, and
# NS_GLOBAL_VALUE=SchedulerType must select the backend; and when uids
# come in any order (as after the 32-bit uid wraps) the pop order must
# still be MapScheduler's.
if [ $# -eq 0 ]; then
	echo "test-ns3.sh: ns-3 (libns3-dev) not found, skipping"
	exit 0
fi
prog=$1
dir=$(dirname "$prog")
rc=0
ref=$("$prog" storm ns3::MapScheduler) || exit 1
ord=$("$prog" order ns3::MapScheduler 16 400) || exit 1
wide=$("$prog" order ns3::MapScheduler 16384 15000) || exit 1
"$prog" model ns3::MapScheduler "$dir/Map.tr" || exit 1
echo "test-ns3.sh: MapScheduler: $ref"
for k in Rb Gavl Binom Ladder; do
	t=ns3::Smartq${k}Scheduler
	got=$("$prog" storm $t)
	if [ "$got" != "$ref" ]; then
		echo "test-ns3.sh: $t storm: $got, MapScheduler: $ref"
		rc=1
	fi
	if [ "$("$prog" order $t 16 400)" != "$ord" ] ||
	   [ "$("$prog" order $t 16384 15000)" != "$wide" ]; then
		echo "test-ns3.sh: $t: uids in any order: not MapScheduler's order"
		rc=1
	fi
	if ! "$prog" model $t "$dir/$k.tr" ||
	   ! cmp -s "$dir/Map.tr" "$dir/$k.tr"; then
		echo "test-ns3.sh: $t: the model's ASCII trace differs"
		rc=1
	fi
	sel=$(NS_GLOBAL_VALUE=SchedulerType=$t "$prog" global)
	if [ "$sel" != "$t" ]; then
		echo "test-ns3.sh: NS_GLOBAL_VALUE=SchedulerType=$t gave $sel"
		rc=1
	fi
	[ $rc -eq 0 ] && echo "test-ns3.sh: $t: storm, trace, global value ok"
done
exit $rc
