package cpus

import (
	"strings"
	"testing"
	"testing/fstest"
)

func TestLimit(t *testing.T) {
	file := func(s string) *fstest.MapFile { return &fstest.MapFile{Data: []byte(s)} }
	for _, tc := range []struct {
		name     string
		affinity int
		fs       fstest.MapFS
		want     int
		why      string
	}{
		{"no cgroup files", 8, fstest.MapFS{}, 8, "no cgroup CPU quota"},
		{"v2 unlimited", 8, fstest.MapFS{"proc/self/cgroup": file("0::/job\n"), "sys/fs/cgroup/job/cpu.max": file("max 100000\n")}, 8, "no cgroup CPU quota"},
		{"v2 quota of 4 on a 64-CPU host", 64, fstest.MapFS{"proc/self/cgroup": file("0::/job\n"), "sys/fs/cgroup/job/cpu.max": file("400000 100000\n")}, 4, "quota (4 CPUs in /sys/fs/cgroup/job/cpu.max), not the 64"},
		{"v2 parent's quota binds", 64, fstest.MapFS{"proc/self/cgroup": file("0::/a/b\n"), "sys/fs/cgroup/a/b/cpu.max": file("max 100000"), "sys/fs/cgroup/a/cpu.max": file("150000 100000")}, 2, "1.5 CPUs in /sys/fs/cgroup/a/cpu.max"},
		{"v2 quota above affinity", 2, fstest.MapFS{"proc/self/cgroup": file("0::/\n"), "sys/fs/cgroup/cpu.max": file("800000 100000")}, 2, "allows 8"},
		{"v1 quota", 16, fstest.MapFS{"proc/self/cgroup": file("3:cpu,cpuacct:/docker/x\n0::/\n"), "sys/fs/cgroup/cpu/docker/x/cpu.cfs_quota_us": file("300000\n"), "sys/fs/cgroup/cpu/docker/x/cpu.cfs_period_us": file("100000\n")}, 3, "3 CPUs in /sys/fs/cgroup/cpu/docker/x/cpu.cfs_quota_us"},
		{"v1 no quota", 2, fstest.MapFS{"proc/self/cgroup": file("1:cpu:/\n"), "sys/fs/cgroup/cpu/cpu.cfs_quota_us": file("-1\n"), "sys/fs/cgroup/cpu/cpu.cfs_period_us": file("100000\n")}, 2, "no cgroup CPU quota"},
		{"tiny quota is one", 4, fstest.MapFS{"proc/self/cgroup": file("0::/\n"), "sys/fs/cgroup/cpu.max": file("20000 100000")}, 1, "0.2 CPUs"},
		{"garbage", 4, fstest.MapFS{"proc/self/cgroup": file("0::/\n"), "sys/fs/cgroup/cpu.max": file("lots")}, 4, "no cgroup CPU quota"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			n, why := limit(tc.affinity, tc.fs)
			if n != tc.want || !strings.Contains(why, tc.why) {
				t.Errorf("limit = %d, %q; want %d, containing %q", n, why, tc.want, tc.why)
			}
		})
	}
}

func TestJobHere(t *testing.T) {
	n, why := Job()
	if n < 1 || why == "" {
		t.Fatalf("Job() = %d, %q", n, why)
	}
}
