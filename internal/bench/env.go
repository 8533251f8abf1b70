package bench

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"runtime"
	"runtime/debug"
	"strings"
	"time"

	"github.com/wirebench/wirebench/internal/results"
)

// codecModules are the modules whose versions change what the suite
// measures; they are recorded with every run.
var codecModules = []string{
	"google.golang.org/protobuf",
	"github.com/google/flatbuffers",
	"github.com/vmihailenco/msgpack/v5",
}

// CaptureEnv records the environment of this process: Go version,
// platform, CPU model, parallelism, a hash identifying the machine, the
// codec module versions and, when known, the commit and CI runner. The
// getenv function reads environment variables (os.Getenv in production).
func CaptureEnv(getenv func(string) string) results.Env {
	e := results.Env{
		GoVersion:  runtime.Version(),
		GOOS:       runtime.GOOS,
		GOARCH:     runtime.GOARCH,
		CPU:        cpuModel(),
		GOMAXPROCS: runtime.GOMAXPROCS(0),
		NumCPU:     runtime.NumCPU(),
		Modules:    map[string]string{},
		Time:       time.Now().UTC().Truncate(time.Second),
	}
	host, _ := os.Hostname()
	sum := sha256.Sum256([]byte(host + "\x00" + e.CPU))
	e.Machine = hex.EncodeToString(sum[:4])
	if bi, ok := debug.ReadBuildInfo(); ok {
		e.Wirebench = bi.Main.Version
		for _, d := range bi.Deps {
			for _, m := range codecModules {
				if d.Path == m {
					v := d.Version
					if d.Replace != nil {
						v = d.Replace.Version
					}
					e.Modules[m] = v
				}
			}
		}
		for _, s := range bi.Settings {
			if s.Key == "vcs.revision" {
				e.Commit = s.Value
			}
		}
	}
	if sha := getenv("GITHUB_SHA"); sha != "" {
		e.Commit = sha
	}
	if ref := getenv("GITHUB_REF_NAME"); ref != "" {
		e.Ref = ref
	}
	if getenv("GITHUB_ACTIONS") == "true" {
		parts := []string{"GitHub Actions"}
		for _, k := range []string{"RUNNER_ENVIRONMENT", "ImageOS", "RUNNER_ARCH"} {
			if v := getenv(k); v != "" {
				parts = append(parts, v)
			}
		}
		e.Runner = strings.Join(parts, ", ")
	}
	return e
}

// cpuModel reads the CPU model name (Linux), or returns "".
func cpuModel() string {
	f, err := os.Open("/proc/cpuinfo")
	if err != nil {
		return ""
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), ":")
		if ok && strings.TrimSpace(k) == "model name" {
			return strings.TrimSpace(v)
		}
	}
	return ""
}
