// Package plot renders a wirebench run as PNG charts, for people who would
// rather look than read the tables:
//
//   - size.png: encoded size (B/msg) per dataset and codec, grouped bars on
//     a log scale, since sizes span from tens of bytes to tens of megabytes,
//     each bar labelled with its size (three significant digits).
//   - serialize.png and deserialize.png: median time per operation (ns/op)
//     per dataset and codec, grouped bars on a log scale, with whiskers over
//     the interquartile range of the samples so noise is visible.
//   - scaling.png: for the numeric-array datasets (those with a known
//     element count, see bench.Dataset.Elements), time per operation
//     against payload elements on log-log axes, serialize and deserialize side
//     by side, one line per codec, over faint slope-1 guides of constant
//     time per element: a codec that runs parallel to the guides costs the
//     same per element at every size.
//
// Only what a run contains is drawn: a filtered run gets charts for the
// datasets and codecs it measured, and a chart with nothing to show is not
// written. Output is a function of the results alone, so the same results
// give byte-identical images.
package plot
