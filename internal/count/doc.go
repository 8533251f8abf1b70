// Package count counts the work of one build's benchmarks under
// callgrind: instructions per operation (and, with the cache simulation,
// cycles estimated from it), which a busy or shared machine does not
// move.
//
// A count is made in steps:
//
//   - calibration: the build runs natively once, every benchmark warmed
//     up briefly, which says what an operation costs and so how many
//     iterations a counted block holds (Settings.Block, a power of two;
//     a stored reference's block sizes are kept instead);
//   - the plan: every benchmark in Settings.Processes fresh processes
//     (fewer for a costly one), Settings.Blocks counted blocks in each;
//     the processes are the replicates, since a count moves between
//     processes (map order and hash seeds are drawn per process) and not
//     between blocks of one;
//   - the processes: each one a worker under callgrind, its heap made
//     dirty before it counts (internal/worker), its benchmarks in an
//     order of its own, Settings.Jobs processes at a time (counts do not
//     depend on what runs beside them);
//   - the reduction: a block's dumps summed into counts per operation,
//     a process's blocks into their median, a process's value one sample
//     of every unit in the results.
//
// One counts one build, for a comparison with a stored baseline; a Pair
// counts two builds with the same plan, the head in blocks of the base's
// sizes, and counts changed benchmarks again in fresh processes of both
// (Pair.Again) before a comparison (internal/ab) claims them. How one
// block is measured is the worker's (internal/worker); what a count
// means is compared in internal/compare (a t-test on the processes,
// paired by seed where the processes took it: worker.RuntimeSeedVar).
package count
