package reporttest

import (
	"fmt"
	"math"
	"time"

	"github.com/wirebench/wirebench/internal/baseline"
	"github.com/wirebench/wirebench/internal/results"
)

// The default suite (7 codecs, 6 datasets, serialize and deserialize: 84
// benchmarks), its medians built by hand so that the reports' golden
// files depend on the renderers alone.

// SuiteCodecs and SuiteDatasets are the suite's codecs and datasets, in
// the order its runs list them.
var (
	SuiteCodecs   = []string{"protobuf", "flatbuffers", "flatbuffers-reuse", "msgpack", "json", "gob", "raw"}
	SuiteDatasets = []string{"small", "medium", "large", "floats-1k", "floats-64k", "floats-1m"}
	// Encoded bytes per dataset and relative size per codec.
	datasetBytes = map[string]float64{"small": 24, "medium": 1180, "large": 52_400, "floats-1k": 8_200, "floats-64k": 524_300, "floats-1m": 8_388_620}
	codecSize    = map[string]float64{"protobuf": 1, "flatbuffers": 1.6, "flatbuffers-reuse": 1.6, "msgpack": 1.1, "json": 2.4, "gob": 1.5, "raw": 1}
	codecSpeed   = map[string]float64{"protobuf": 1, "flatbuffers": 0.8, "flatbuffers-reuse": 0.55, "msgpack": 1.3, "json": 4.1, "gob": 2.7, "raw": 0.2}
	datasetNs    = map[string]float64{"small": 95, "medium": 2_400, "large": 118_000, "floats-1k": 1_900, "floats-64k": 121_000, "floats-1m": 2_050_000}
	datasetAlloc = map[string]float64{"small": 1, "medium": 9, "large": 412, "floats-1k": 1, "floats-64k": 1, "floats-1m": 1}
)

// BaseTime is when the latest run of History ran.
var BaseTime = time.Date(2026, 9, 14, 8, 30, 0, 0, time.UTC)

// Jitter is a deterministic pseudo-noise in [-1, 1] for index i.
func Jitter(i int) float64 { return float64((i*37+11)%21-10) / 10 }

// SuiteMedians returns the baseline medians of the default suite's
// benchmark op/codec/dataset: ns/op, B/op, allocs/op and (serialize) B/msg.
func SuiteMedians(op, codec, dataset string) map[string]float64 {
	m := map[string]float64{}
	size := math.Round(datasetBytes[dataset] * codecSize[codec])
	ns := datasetNs[dataset] * codecSpeed[codec]
	allocs := math.Round(datasetAlloc[dataset] * codecSpeed[codec] * 2)
	if op == "Deserialize" {
		ns *= 1.4
		allocs += 2
	}
	m[results.UnitNsPerOp] = math.Round(ns*10) / 10
	m[results.UnitBytesPerOp] = size + 64*allocs
	m[results.UnitAllocsPerOp] = allocs
	if op == "Serialize" {
		m[results.UnitBytesPerMsg] = size
	}
	return m
}

// SuiteName is the name of the default suite's benchmark op/codec/dataset.
func SuiteName(op, codec, dataset string) string {
	return "Benchmark" + op + "/codec=" + codec + "/dataset=" + dataset
}

// History is eight stored runs of the default suite, a day apart,
// drifting slowly.
func History() []baseline.Entry {
	var h []baseline.Entry
	for k := range 8 {
		e := baseline.Entry{Time: BaseTime.AddDate(0, 0, k-7), Commit: fmt.Sprintf("%07x0000", 0x1a2b3c0+k*0x1111), Ref: "main",
			Machine: "3f9a2c1e", Go: "go1.26.8", Medians: map[string]map[string]float64{}}
		for _, ds := range SuiteDatasets {
			for _, codec := range SuiteCodecs {
				for _, op := range []string{"Serialize", "Deserialize"} {
					m := SuiteMedians(op, codec, ds)
					m[results.UnitNsPerOp] = math.Round(m[results.UnitNsPerOp]*(1+0.015*Jitter(k*7+len(codec)))*10) / 10
					e.Medians[SuiteName(op, codec, ds)] = m
				}
			}
		}
		h = append(h, e)
	}
	return h
}
