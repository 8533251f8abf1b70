#!/bin/sh
# stored-baseline-residuals.sh OUT — how far do unchanged benchmarks move
# against a stored baseline's history, and could any test on that history
# catch a +20% change of one benchmark without crying wolf? (issue 14)
#
# Reads what stored-baseline-aa.sh left in OUT (baseline.json with its
# history, the checks' NAME.results.json and summary.tsv) and prints, for
# the checks of unchanged code (aa-*), split into quiet and loaded:
#  - the spread of each benchmark within the history (the back-to-back
#    runs the baseline was made of), and
#  - each benchmark's residual in each check: its log ratio to the
#    reference, relative to the check's own typical shift (the median over
#    benchmarks, as the comparison normalises), minus the history's mean
#    of the same quantity: what the new-run test judges;
# (by load and budget: a check at another budget than the history's is
# measured with other batch sizes); then what two sharper tests would have flagged on the same data: the
# moderated t of limma (the history's spreads shrunk to a common prior,
# squeezeVar) and the same with genomic control (every t divided by the
# run's sqrt(lambda)), at Holm-adjusted alpha 1% over the timings; and the
# target benchmark of the injected checks under both.
#
# Needs jq and R with limma (Debian: r-base-core, r-bioc-limma). Nothing is
# measured; it only reads OUT. Takes seconds.
set -eu
OUT=${1:?usage: stored-baseline-residuals.sh OUT (the directory stored-baseline-aa.sh wrote)}
TARGET=${TARGET:-BenchmarkSerialize/codec=protobuf/dataset=floats-64k}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

jq -r '.history[] as $h | $h.medians | to_entries[] | select(.value["ns/op"] != null) | [$h.seq, .key, .value["ns/op"]] | @tsv' \
	"$OUT/baseline.json" >"$tmp/history.tsv"
for f in "$OUT"/aa-*.results.json "$OUT"/injected-*.results.json; do
	[ -e "$f" ] || continue
	name=$(basename "$f" .results.json)
	jq -r --arg n "$name" '.benchmarks[] | [$n, .name, ([.metrics[] | select(.unit == "ns/op") | .values | sort
		| if length % 2 == 1 then .[length / 2 | floor] else (.[length / 2 - 1] + .[length / 2]) / 2 end][0])] | @tsv' "$f"
done >"$tmp/checks.tsv"
awk -F '\t' 'NR > 1 { print $1 "-" $2 "\t" $3 "\t" $4 }' "$OUT/summary.tsv" >"$tmp/conditions.tsv"

TARGET=$TARGET Rscript - "$tmp" <<'R'
suppressMessages(library(limma))
dir <- commandArgs(TRUE)[1]
h <- read.delim(file.path(dir, "history.tsv"), header = FALSE, col.names = c("seq", "name", "v"))
ck <- read.delim(file.path(dir, "checks.tsv"), header = FALSE, col.names = c("run", "name", "v"))
cond <- read.delim(file.path(dir, "conditions.tsv"), header = FALSE, col.names = c("run", "load", "budget"))
target <- Sys.getenv("TARGET")
w <- reshape(h, idvar = "name", timevar = "seq", direction = "wide")
rownames(w) <- w$name
m <- log(as.matrix(w[, -1]))
ref <- m[, ncol(m)]                      # the reference: the last run of the history
lr <- sweep(m - ref, 2, apply(m - ref, 2, median))
mu <- rowMeans(lr); s2 <- apply(lr, 1, var); k <- ncol(lr); d <- k - 1
resid <- function(r) {
  x <- ck[ck$run == r, ]; rownames(x) <- x$name
  x <- log(x[rownames(lr), "v"]) - ref
  x - median(x) - mu
}
pct <- function(v) sprintf("%.1f%%", 100 * v)
cat(sprintf("history: %d runs, %d benchmarks; spread between its runs (sd of log): median %s, range %s to %s\n",
            k, nrow(lr), pct(median(sqrt(s2))), pct(min(sqrt(s2))), pct(max(sqrt(s2)))))
fit <- squeezeVar(s2, d)
groups <- list()
for (ph in c("aa", "injected")) for (ld in c("quiet", "loaded")) for (b in unique(cond$budget)) groups[[length(groups) + 1]] <- c(ld, ph, b)
for (grp in groups) {
  runs <- cond$run[cond$load == grp[1] & startsWith(cond$run, paste0(grp[2], "-")) & cond$budget == grp[3]]
  runs <- runs[runs %in% ck$run]
  if (length(runs) == 0) next
  R <- sapply(runs, resid)
  keep <- if (grp[2] == "injected") rownames(lr) != target else rep(TRUE, nrow(lr))
  Rk <- R[keep, , drop = FALSE]
  cat(sprintf("\n%s %s checks at %s (%d): residual per benchmark and check, |log|: median %s, 90%% %s, 99%% %s, max %s; beyond ±20%%: %s of %d\n",
              grp[1], grp[2], grp[3], length(runs), pct(median(abs(Rk))), pct(quantile(abs(Rk), .9)), pct(quantile(abs(Rk), .99)),
              pct(max(abs(Rk))), pct(mean(abs(Rk) > log(1.2))), length(Rk)))
  for (r in runs) {
    x <- resid(r)
    t <- x / (sqrt(fit$var.post) * sqrt(1 + 1 / k)); df <- d + fit$df.prior
    lam <- max(1, median(t^2) / qf(0.5, 1, df))
    flag <- function(t) p.adjust(2 * pt(-abs(t), df), "holm") < 0.01
    f1 <- flag(t); f2 <- flag(t / sqrt(lam)); it <- rownames(lr) == target
    cat(sprintf("  %-12s %-6s %-4s moderated t (prior df %.1f): %2d flagged%s; with genomic control (lambda %.2f): %2d flagged%s; %s %+.1f%%\n",
                r, cond$load[cond$run == r], cond$budget[cond$run == r], fit$df.prior,
                sum(f1 & !it), if (f1[it]) ", target caught" else "", lam, sum(f2 & !it), if (f2[it]) ", target caught" else "",
                sub("^Benchmark", "", target), 100 * (exp(x[it]) - 1)))
  }
}
R
