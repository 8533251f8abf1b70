package count

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/wirebench/wirebench/internal/program"
	"github.com/wirebench/wirebench/internal/results"
	"github.com/wirebench/wirebench/internal/worker"
)

// One benchmark's trouble is its own row, never the whole run's: a
// benchmark that skips, fails, crashes or outlasts its time under
// Valgrind only (its code detects the counter, or takes a path for a CPU
// feature Valgrind's CPU lacks) is not counted, with why, and the count
// goes on with the others; a process it crashed is started again for
// the benchmarks left. What it did natively is the calibration's
// (calibrate): those that skip or fail there are troubles of their own
// too, and not counted at all.

// maxRestarts bounds how many times one counted process is started again
// after a benchmark crashed it or did not answer: beyond it the build's
// trouble is not one benchmark's.
const maxRestarts = 3

// noteTrouble records t of side's build ("" for One): its first trouble
// stands. It says so once in the progress.
func (r *run) noteTrouble(side string, t results.Trouble) {
	r.mu.Lock()
	if r.troubles == nil {
		r.troubles = map[string]map[string]results.Trouble{}
	}
	if r.troubles[side] == nil {
		r.troubles[side] = map[string]results.Trouble{}
	}
	_, had := r.troubles[side][t.Name]
	if !had {
		r.troubles[side][t.Name] = t
	}
	r.mu.Unlock()
	if !had {
		r.progressf("%s%s %s: %s; the others go on", sidePrefix(side), t.Name, t.Kind, t.Why)
	}
}

// troubled reports whether side's benchmark name has a trouble: a later
// process does not count it again.
func (r *run) troubled(side, name string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	_, ok := r.troubles[side][name]
	return ok
}

// troublesOf are side's troubles, sorted by name.
func (r *run) troublesOf(side string) []results.Trouble {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []results.Trouble
	for _, t := range r.troubles[side] {
		out = append(out, t)
	}
	slices.SortFunc(out, func(a, b results.Trouble) int { return strings.Compare(a.Name, b.Name) })
	return out
}

// sidePrefix is "base: " for a build side, "" for One's.
func sidePrefix(side string) string {
	if side == "" {
		return ""
	}
	return side + ": "
}

// countTrouble is what err, from counting the benchmark name, makes of
// it: a trouble of its own (ok), and whether the process that met it can
// go on (alive: the worker answered with an error) or must be started
// again (it exited, or did not answer in time). An error that is not one
// benchmark's (a cancelled run, a protocol broken, a setup that failed)
// is not ok: it ends the run, as before.
func countTrouble(ctx context.Context, name string, err error) (t results.Trouble, alive, ok bool) {
	if ctx.Err() != nil || program.IsSetup(err) || errors.Is(err, worker.ErrIncompatible) {
		return results.Trouble{}, false, false
	}
	var reply *worker.ReplyError
	switch {
	case errors.As(err, &reply):
		how := "gave no count under Valgrind"
		switch reply.Trouble {
		case results.TroubleSkipped:
			how = "skipped under Valgrind"
		case results.TroubleFailed:
			how = "failed under Valgrind"
		}
		return results.NewTrouble(name, results.TroubleNotCounted, how+": "+reply.Msg), true, true
	case errors.Is(err, worker.ErrExited):
		why := "crashed under Valgrind: " + firstLine(err)
		if strings.Contains(err.Error(), "SIGILL") {
			why = "crashed under Valgrind with SIGILL after running natively: it runs an instruction this CPU has and Valgrind does not implement, such as AVX-512 (select such code by CPU feature, golang.org/x/sys/cpu: Valgrind reports the features it implements); " + firstLine(err)
		}
		return results.NewTrouble(name, results.TroubleNotCounted, why), false, true
	case errors.Is(err, worker.ErrNoReply):
		return results.NewTrouble(name, results.TroubleNotCounted, "outlasted its time under Valgrind: "+firstLine(err)), false, true
	}
	return results.Trouble{}, false, false
}

// firstLine is err's first line, without the worker's label.
func firstLine(err error) string {
	s, _, _ := strings.Cut(err.Error(), "\n")
	return s
}

// restartError is a process that crashed more than maxRestarts times:
// the last benchmark's error, with how many crashed before it.
func restartError(err error, names []string) error {
	return fmt.Errorf("%w\n(%d benchmarks crashed the process or did not answer before this one: %s; that is the build's trouble, not one benchmark's)",
		err, len(names), strings.Join(names, ", "))
}
