// Package bench is the wirebench serialization suite: the codecs, the
// datasets they encode, and the harness that measures them.
//
// A benchmark is one codec and one dataset and one operation: serialize
// (encode the value from the codec's natural in-memory form) or deserialize
// (decode into that form and read every field). Everything a benchmark needs
// (the value in native form, the encoded bytes to decode) is built before
// timing starts.
package bench
