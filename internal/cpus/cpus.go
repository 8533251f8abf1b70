// Package cpus says how many CPUs this job may keep busy at once, and
// why: the CPUs the process may run on (its affinity, runtime.NumCPU),
// fewer where its cgroup has a CPU quota (a container given 4 CPUs on a
// 64-CPU host has 4, however many the host shows).
//
// The counted instrument runs that many processes at a time: a count
// does not depend on what runs beside it, so every CPU the job has
// shortens the run, and more processes than that only share them.
package cpus

import (
	"bufio"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path"
	"runtime"
	"strconv"
	"strings"
)

// Job is how many CPUs this process's job may use, with a sentence
// saying where the number comes from, for the run's first lines.
func Job() (int, string) {
	return limit(runtime.NumCPU(), os.DirFS("/"))
}

// limit is Job on a file system: affinity CPUs, bounded by the cgroup
// quota read from fsys (rooted at /).
func limit(affinity int, fsys fs.FS) (int, string) {
	q, where, ok := quota(fsys)
	if !ok {
		return affinity, fmt.Sprintf("the %d CPUs this process may run on (no cgroup CPU quota)", affinity)
	}
	n := max(1, int(math.Ceil(q-1e-9)))
	if n >= affinity {
		return affinity, fmt.Sprintf("the %d CPUs this process may run on (its cgroup's quota, %s in %s, allows %.3g)", affinity, fmtQuota(q), where, q)
	}
	return n, fmt.Sprintf("its cgroup's CPU quota (%s in %s), not the %d CPUs the host shows", fmtQuota(q), where, affinity)
}

func fmtQuota(q float64) string { return strconv.FormatFloat(q, 'g', 3, 64) + " CPUs" }

// quota is the smallest CPU quota, in CPUs, of this process's cgroup and
// its ancestors, cgroup v2 (cpu.max) or v1 (cpu.cfs_quota_us over
// cpu.cfs_period_us), and the file it was read from; ok is false where
// no quota is set or none can be read.
func quota(fsys fs.FS) (q float64, where string, ok bool) {
	v2, v1 := cgroupPaths(fsys)
	best := math.Inf(1)
	consider := func(v float64, file string) {
		if v > 0 && v < best {
			best, where = v, "/"+file
		}
	}
	if v2 != "" {
		for p := v2; ; p = path.Dir(p) {
			file := path.Join("sys/fs/cgroup", p, "cpu.max")
			consider(readV2(fsys, file), file)
			if p == "/" || p == "." {
				break
			}
		}
	}
	for _, base := range []string{"sys/fs/cgroup/cpu", "sys/fs/cgroup/cpu,cpuacct"} {
		for p := v1; ; p = path.Dir(p) {
			dir := path.Join(base, p)
			consider(readV1(fsys, dir), path.Join(dir, "cpu.cfs_quota_us"))
			if p == "/" || p == "." || p == "" {
				break
			}
		}
	}
	if math.IsInf(best, 1) {
		return 0, "", false
	}
	return best, where, true
}

// cgroupPaths are this process's cgroup v2 path and its v1 cpu
// controller's path, from /proc/self/cgroup ("/" where not listed).
func cgroupPaths(fsys fs.FS) (v2, v1 string) {
	v1 = "/"
	f, err := fsys.Open("proc/self/cgroup")
	if err != nil {
		return "/", v1
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		// hierarchy-ID:controller-list:path
		parts := strings.SplitN(sc.Text(), ":", 3)
		if len(parts) != 3 {
			continue
		}
		if parts[0] == "0" && parts[1] == "" {
			v2 = parts[2]
		}
		for _, c := range strings.Split(parts[1], ",") {
			if c == "cpu" {
				v1 = parts[2]
			}
		}
	}
	return v2, v1
}

// readV2 is the quota of a cgroup v2 cpu.max ("max 100000" or
// "200000 100000"), 0 where none.
func readV2(fsys fs.FS, file string) float64 {
	data, err := fs.ReadFile(fsys, file)
	if err != nil {
		return 0
	}
	f := strings.Fields(string(data))
	if len(f) != 2 || f[0] == "max" {
		return 0
	}
	return ratio(f[0], f[1])
}

// readV1 is the quota of a cgroup v1 cpu controller directory, 0 where
// none (a quota of -1).
func readV1(fsys fs.FS, dir string) float64 {
	q, err := fs.ReadFile(fsys, path.Join(dir, "cpu.cfs_quota_us"))
	if err != nil {
		return 0
	}
	p, err := fs.ReadFile(fsys, path.Join(dir, "cpu.cfs_period_us"))
	if err != nil {
		return 0
	}
	return ratio(strings.TrimSpace(string(q)), strings.TrimSpace(string(p)))
}

func ratio(quota, period string) float64 {
	q, err1 := strconv.ParseFloat(quota, 64)
	p, err2 := strconv.ParseFloat(period, 64)
	if err1 != nil || err2 != nil || q <= 0 || p <= 0 {
		return 0
	}
	return q / p
}
