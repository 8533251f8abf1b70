# reference.R — reference values for package changepoint, computed with
# R's ecp package (Matteson and James's E-divisive means).
#
# How it was run (from the repository root), with Debian's r-base-core,
# r-base-dev and r-cran-rcpp (bookworm, R 4.2.2) and ecp 3.1.6 built from
# its CRAN source (the github.com/cran/ecp mirror, commit 9fdf70c):
#
#     R CMD INSTALL -l /tmp/rlib ecp
#     R_LIBS=/tmp/rlib Rscript internal/changepoint/testdata/reference.R \
#         > internal/changepoint/testdata/reference.json
#
# Series are generated from fixed seeds and rounded to 4 decimals, so the
# JSON is the input as Go reads it. For every series it records:
#
#   split     ecp's best split of the whole series for min.size m: the
#             first point of the right segment (1-based, as ecp reports)
#             and the statistic ("energy released"), from e.split.
#   k         e.divisive(..., k = K, min.size = m): the K change points in
#             the order found (order.found without the ends) and sorted
#             (estimates): the hierarchical search without a test (R = 0).
#   p         e.divisive(..., R = 1999, sig.lvl = 0.05, min.size = m):
#             the p-value of the first candidate. Go draws other shuffles
#             than R, so the test compares within Monte Carlo error.
suppressMessages(library(ecp))
num <- function(x) sprintf("%.17g", x)
series <- list()
add <- function(name, x, m) series[[length(series) + 1]] <<- list(name = name, x = round(x, 4), m = m)
set.seed(1); add("flat-normal-30", rnorm(30, 100, 3), 3)
set.seed(2); add("step-2sd-30", c(rnorm(20, 100, 3), rnorm(10, 106, 3)), 3)
set.seed(3); add("step-5sd-50", c(rnorm(25, 100, 5), rnorm(25, 125, 5)), 4)
set.seed(4); add("two-steps-50", c(rnorm(15, 10, 1), rnorm(20, 14, 1), rnorm(15, 9, 1)), 3)
set.seed(5); add("heavy-tail-40", 100 * exp(0.05 * rt(40, df = 2)), 2)
set.seed(6); add("exact-step-30", c(rep(26, 22), rep(30, 8)), 2)
set.seed(7); add("late-step-30", c(rnorm(26, 50, 1), rnorm(4, 60, 1)), 2)
cat("[\n")
for (i in seq_along(series)) {
  s <- series[[i]]
  X <- matrix(s$x, ncol = 1)
  D <- as.matrix(dist(X))
  sp <- ecp:::e.split(c(1, length(s$x) + 1), D, s$m, TRUE)
  ks <- c()
  for (k in 1:3) {
    r <- e.divisive(X, k = k, min.size = s$m)
    found <- r$order.found[-(1:2)]
    ks <- c(ks, sprintf('{"k": %d, "found": [%s], "estimates": [%s]}', k,
      paste(found, collapse = ", "), paste(r$estimates[-c(1, length(r$estimates))], collapse = ", ")))
  }
  set.seed(100 + i)
  pr <- e.divisive(X, R = 1999, sig.lvl = 0.05, min.size = s$m)
  cat(sprintf('{"name": "%s", "min_size": %d, "x": [%s], "split": {"at": %d, "stat": %s}, "k": [%s], "p": %s, "permutations": %d}%s\n',
    s$name, s$m, paste(num(s$x), collapse = ", "), sp[[3]][3], num(sp[[4]]),
    paste(ks, collapse = ", "), num(pr$p.values[1]), pr$permutations[1],
    if (i < length(series)) "," else ""))
}
cat("]\n")
