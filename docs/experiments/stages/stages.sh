#!/bin/sh
# The simulation of a counted A/B run's stages (issue 54): the real
# judgeCounts stages (compare.Compare, open, settle) on simulated counts of
# instructions/op, gc-instructions/op and allocs/op, by the plans of
# internal/check/stages_test.go (stagePlans) in the scenarios of
# stageScenarios. Writes the table to stages-DATE.tsv and the test's log
# beside it. One CPU by default (STAGES_WORKERS): about 20 minutes here
# with RUNS=1000 and BIG=200.
set -eu
cd "$(dirname "$0")/../../.."
RUNS=${RUNS:-1000}
BIG=${BIG:-200}
WORKERS=${STAGES_WORKERS:-1}
OUT=${OUT:-docs/experiments/stages/stages-$(date -u +%Y-%m-%d)}
go test -c -o /tmp/stages-check.test ./internal/check
cd internal/check
/tmp/stages-check.test -test.run 'TestStagesSimulation$' -test.v -test.timeout 3h \
	-stages.runs "$RUNS" -stages.big "$BIG" -stages.workers "$WORKERS" \
	-stages.out "../../$OUT.tsv" | tee "../../$OUT.log"
