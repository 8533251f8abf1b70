// Package human formats numbers for people, one way everywhere: counts
// with thousands separators and their nouns, percentages, byte sizes.
// Reports, progress lines and errors all use it, so "1,234 benchmarks",
// "1%" and "2.5 MiB" read the same wherever they appear.
package human
