# reference.R — reference values for package stats, computed with R.
#
# How it was run (from the repository root):
#
#     Rscript internal/stats/testdata/reference.R > internal/stats/testdata/reference.json
#
# with "R version 4.2.2 Patched (2022-11-10 r83330)" from Debian's r-base-core
# (bookworm), base packages only. Inputs are generated from fixed seeds and
# rounded to a few significant digits so the JSON is readable; every number is
# written with 17 significant digits so Go reads back the same double.
#
# What is recorded, and how the Go tests use it (stats_ref_test.go):
#
#   ranksum   wilcox.test(x, y) for the statistic W and the p-values
#             (exact=TRUE, exact=FALSE with correct=TRUE, and R's default
#             choice). The Hodges-Lehmann shift y - x and its interval are
#             wilcox.test(y, x, conf.int=TRUE, conf.level=...) with
#             exact=TRUE (only where R really is exact: no ties, n < 50) and
#             exact=FALSE. For the normal approximation R finds the interval
#             ends with uniroot(); with the default tol.root=1e-4 they are
#             only accurate to 1e-4 in data units, so they are recorded both
#             ways: *_default with R's default, and the main fields with
#             tol.root=1e-12, where uniroot converges onto the same order
#             statistic of the pairwise differences that Go returns. The
#             estimate is recorded as R prints it and as median_diff, the
#             median of the pairwise differences (what R reports when exact,
#             and what Go reports always; see the package doc).
#             ratio_* are the same on log(x), log(y), exponentiated.
#   signrank  wilcox.test(d, ...) likewise (V, p-values, pseudo-median and
#             interval), zeros dropped as R does.
#   padjust   p.adjust(p, "holm") and p.adjust(p, "BH"); NA stands for NaN.
#   pwilcox, qwilcox, psignrank, qsignrank: points of the exact null
#             distributions, including quantiles at exact CDF values.
#   median    median(), mad(), and the distribution-free order-statistic
#             interval of the median (largest k with pbinom(k-1, n, 1/2) <=
#             (1-conf)/2; interval [x(k), x(n+1-k)], achieved confidence
#             1 - 2*pbinom(k-1, n, 1/2)).
#   geomean   exp(t.test(log(r), conf.level=...)) estimate and interval.
#   mde, samples_for, paired_mde: the closed-form normal approximations
#             with the Mann-Whitney/Wilcoxon asymptotic relative
#             efficiency 3/pi, written out below in R.

options(warn = -1)

# ---- minimal JSON writer (base R only) ----
arr <- function(v) structure(v, class = "jsonarray")
num <- function(v) {
  if (is.na(v) && !is.nan(v)) return("null")
  if (is.nan(v)) return("\"NaN\"")
  if (is.infinite(v)) return(if (v > 0) "\"Inf\"" else "\"-Inf\"")
  sprintf("%.17g", v)
}
json <- function(o, indent = "") {
  ind2 <- paste0(indent, "  ")
  if (inherits(o, "jsonarray")) {
    v <- unclass(o)
    if (length(v) == 0) return("[]")
    return(paste0("[", paste(vapply(v, num, ""), collapse = ", "), "]"))
  }
  if (is.null(o)) return("null")
  if (is.list(o)) {
    if (length(o) == 0) return(if (is.null(names(o))) "[]" else "{}")
    if (is.null(names(o))) {
      items <- vapply(o, function(e) paste0(ind2, json(e, ind2)), "")
      return(paste0("[\n", paste(items, collapse = ",\n"), "\n", indent, "]"))
    }
    items <- mapply(function(k, e) paste0(ind2, "\"", k, "\": ", json(e, ind2)),
                    names(o), o)
    return(paste0("{\n", paste(items, collapse = ",\n"), "\n", indent, "}"))
  }
  if (length(o) == 1 && is.na(o) && !is.nan(o)) return("null")
  if (is.character(o)) return(paste0("\"", o, "\""))
  if (is.logical(o)) return(if (o) "true" else "false")
  if (length(o) != 1) stop("use arr() for vectors")
  num(o)
}

ROOT_TOL <- 1e-12
LEVELS <- c(0.95, 0.99)
lvlname <- function(l) sprintf("ci%02d", round(100 * l))
hasties <- function(v) length(v) != length(unique(v))

# interval summary of one htest with conf.int
# R stops with an error when the interval cannot be computed (every value
# tied at an end of the search range); such entries are written as null.
try_or_null <- function(e) tryCatch(e, error = function(err) NULL)

civals <- function(h) list(estimate = unname(h$estimate), lo = h$conf.int[1],
                            hi = h$conf.int[2], conf_level = attr(h$conf.int, "conf.level"))

# ---- unpaired: Mann-Whitney and Hodges-Lehmann ----
hlset <- function(x, y, exact) {
  # shift y - x as wilcox.test(y, x)
  out <- list()
  for (l in LEVELS) {
    if (exact) {
      h <- wilcox.test(y, x, conf.int = TRUE, conf.level = l, exact = TRUE)
      e <- civals(h)
    } else {
      h <- wilcox.test(y, x, conf.int = TRUE, conf.level = l, exact = FALSE,
                       correct = TRUE, tol.root = ROOT_TOL)
      d <- wilcox.test(y, x, conf.int = TRUE, conf.level = l, exact = FALSE,
                       correct = TRUE)
      e <- civals(h)
      e$estimate_default <- unname(d$estimate)
      e$lo_default <- d$conf.int[1]
      e$hi_default <- d$conf.int[2]
    }
    e$median_diff <- median(outer(y, x, "-"))
    out[[lvlname(l)]] <- e
  }
  out
}

ranksum_case <- function(name, x, y) {
  exact_ok <- !hasties(c(x, y)) && length(x) < 50 && length(y) < 50
  a <- wilcox.test(x, y)
  e <- wilcox.test(x, y, exact = TRUE)
  n <- wilcox.test(x, y, exact = FALSE, correct = TRUE)
  c <- list(name = name, x = arr(x), y = arr(y),
            W = unname(a$statistic),
            p_auto = a$p.value,
            method_auto = if (grepl("exact", a$method)) "exact" else "normal",
            p_exact = if (!hasties(c(x, y))) e$p.value else NA,
            p_normal = n$p.value,
            hl_exact = if (exact_ok) hlset(x, y, TRUE) else NULL,
            hl_normal = try_or_null(hlset(x, y, FALSE)))
  if (all(c(x, y) > 0)) {
    lx <- log(x); ly <- log(y)
    rex <- function(s) lapply(s, function(e) {
      for (k in setdiff(names(e), "conf_level")) e[[k]] <- exp(e[[k]])
      e
    })
    c$ratio_exact <- if (exact_ok && !hasties(c(lx, ly))) rex(hlset(lx, ly, TRUE)) else NULL
    c$ratio_normal <- try_or_null(rex(hlset(lx, ly, FALSE)))
  }
  c
}

sig <- function(v, d = 5) signif(v, d)
set.seed(20251130)
unpaired <- list(
  list("exact_3v3_separated", c(1.1, 2.3, 3.2), c(4.5, 5.1, 6.7)),
  list("exact_3v4_mixed", c(2.1, 4.4, 3.3), c(1.2, 5.5, 2.7, 6.1)),
  list("exact_4v6_shift", sig(rnorm(4, 10, 1)), sig(rnorm(6, 12, 1))),
  list("exact_5v5_interleaved", c(1, 3, 5, 7, 9), c(2, 4, 6, 8, 10)),
  list("exact_7v8_lognormal", sig(rlnorm(7, 5, 0.3)), sig(rlnorm(8, 5.2, 0.3))),
  list("exact_10v10_shift10pct", sig(1000 * rlnorm(10, 0, 0.02), 7), sig(1100 * rlnorm(10, 0, 0.02), 7)),
  list("exact_10v10_aa", sig(1000 * rlnorm(10, 0, 0.02), 7), sig(1000 * rlnorm(10, 0, 0.02), 7)),
  list("exact_10v10_all_y_greater", sig(seq(100, 109) + runif(10), 6), sig(seq(120, 129) + runif(10), 6)),
  list("exact_10v10_all_y_less", sig(seq(200, 209) + runif(10), 6), sig(seq(150, 159) + runif(10), 6)),
  list("exact_8v12_outliers", sig(c(rnorm(7, 50, 1), 95)), sig(c(rnorm(10, 51, 1), 5, 120))),
  list("exact_30v30_shift3pct", sig(rlnorm(30, 3, 0.02), 8), sig(rlnorm(30, 3.03, 0.02), 8)),
  list("exact_49v49", sig(rlnorm(49, 2, 0.05), 9), sig(rlnorm(49, 2.01, 0.05), 9)),
  list("normal_50v50", sig(rlnorm(50, 2, 0.05), 9), sig(rlnorm(50, 2.02, 0.05), 9)),
  list("normal_60v45", sig(rlnorm(60, 7, 0.03), 9), sig(rlnorm(45, 7, 0.03), 9)),
  list("normal_40v60_shift", sig(rlnorm(40, 1, 0.1), 9), sig(rlnorm(60, 1.1, 0.1), 9)),
  list("normal_55v55_all_y_greater", sig(runif(55, 10, 11), 9), sig(runif(55, 12, 13), 9)),
  list("tied_int_6v6", c(3, 5, 5, 7, 8, 8), c(5, 6, 8, 9, 9, 12)),
  list("tied_15v12_quantized", round(rnorm(15, 1000, 15), -1), round(rnorm(12, 1020, 15), -1)),
  list("tied_identical_samples", c(1.5, 2.5, 3.5, 4.5, 5.5), c(1.5, 2.5, 3.5, 4.5, 5.5)),
  list("tied_one_shared_value", c(1.25, 2.5, 3.75, 5), c(2.5, 6.25, 7.5)),
  list("tied_30v30_quantized", round(rlnorm(30, log(500), 0.03)), round(rlnorm(30, log(510), 0.03))),
  list("tied_within_only_6v5", c(4, 4, 6, 9, 9, 9), c(5, 7, 7, 10, 11)),
  list("exact_1v1", c(3), c(4)),
  list("exact_1v5", c(3), c(1, 2, 4, 5, 6)),
  list("exact_2v3", c(0.5, 0.9), c(0.7, 1.3, 1.1)),
  list("exact_6v7_negative", c(-3.2, -1.1, 0.4, 1.9, -0.7, 2.6), c(-0.2, 1.4, 3.3, 0.9, 4.1, 2.2, 5.0))
)
ranksum <- lapply(unpaired, function(c) ranksum_case(c[[1]], c[[2]], c[[3]]))

# ---- paired: signed rank and pseudo-median ----
psset <- function(d, exact) {
  out <- list()
  nz <- d[d != 0]
  walsh <- outer(nz, nz, "+"); walsh <- walsh[!lower.tri(walsh)] / 2
  for (l in LEVELS) {
    if (exact) {
      h <- wilcox.test(d, conf.int = TRUE, conf.level = l, exact = TRUE)
      e <- civals(h)
    } else {
      h <- wilcox.test(d, conf.int = TRUE, conf.level = l, exact = FALSE,
                       correct = TRUE, tol.root = ROOT_TOL)
      g <- wilcox.test(d, conf.int = TRUE, conf.level = l, exact = FALSE,
                       correct = TRUE)
      e <- civals(h)
      e$estimate_default <- unname(g$estimate)
      e$lo_default <- g$conf.int[1]
      e$hi_default <- g$conf.int[2]
    }
    e$median_walsh <- median(walsh)
    out[[lvlname(l)]] <- e
  }
  out
}

signrank_case <- function(name, d) {
  nz <- d[d != 0]
  exact_ok <- !hasties(abs(nz)) && !any(d == 0) && length(nz) < 50
  exact_p_ok <- !hasties(abs(nz)) && !any(d == 0)
  a <- wilcox.test(d)
  e <- wilcox.test(d, exact = TRUE)
  n <- wilcox.test(d, exact = FALSE, correct = TRUE)
  allsame <- length(unique(nz)) == 1
  list(name = name, d = arr(d), n = length(nz),
       V = unname(a$statistic),
       p_auto = a$p.value,
       method_auto = if (grepl("exact", a$method)) "exact" else "normal",
       p_exact = if (exact_p_ok) e$p.value else NA,
       p_normal = n$p.value,
       ps_exact = if (exact_ok) psset(d, TRUE) else NULL,
       ps_normal = if (!allsame) try_or_null(psset(d, FALSE)) else NULL)
}

set.seed(7)
paired <- list(
  list("exact_n5", c(0.8, -0.3, 1.7, 2.2, 0.5)),
  list("exact_n3", c(1.5, 2.5, 0.25)),
  list("exact_n8_shift", sig(rnorm(8, 1, 1))),
  list("exact_n10_logratios", sig(log(rlnorm(10, 0.02, 0.02)), 6)),
  list("exact_n10_all_positive", sig(runif(10, 0.1, 2))),
  list("exact_n10_all_negative", -sig(runif(10, 0.1, 2))),
  list("exact_n20_symmetric", sig(rnorm(20, 0, 1), 6)),
  list("exact_n30", sig(rnorm(30, 0.3, 1), 7)),
  list("exact_n49", sig(rnorm(49, 0.2, 1), 8)),
  list("normal_n50", sig(rnorm(50, 0.2, 1), 8)),
  list("normal_n60_shift", sig(rnorm(60, 0.5, 1), 8)),
  list("normal_n100_logratios", sig(log(rlnorm(100, 0.005, 0.02)), 8)),
  list("zeros_n8", c(0.5, 0, 1.25, -0.75, 2, 0, 3.5, 1.5)),
  list("ties_n10", c(1, -1, 2, 2, 3, -0.5, 4, 0.5, 5, 6)),
  list("zeros_ties_int_n12", c(2, 0, -1, 3, 2, 1, 0, 4, -2, 3, 5, 1)),
  list("zeros_mostly", c(0, 0, 0, 0, 1.5, 0, -0.5, 0, 2.5, 0)),
  list("exact_n1", c(0.7)),
  list("exact_n2", c(-0.4, 1.1)),
  list("normal_n4_ties", c(1, 1, 2, -2)),
  list("heavy_tailed_n15", sig(rt(15, 2) + 0.5, 6)),
  list("exact_n12_mixed_scale", sig(c(rnorm(6, 1e-3, 1e-3), rnorm(6, 2e-3, 1e-3)), 6))
)
signrank <- lapply(paired, function(c) signrank_case(c[[1]], c[[2]]))

# ---- p.adjust ----
pvecs <- list(
  c(0.01, 0.02, 0.03, 0.04, 0.05),
  c(0.04, 0.001, 0.3, 0.02, 0.0005, 0.8, 0.02),
  c(0.5),
  c(1e-6, 0.2, 0.2, 0.9, 0.049, 0.011, 0.3, 0.0001, 0.6, 0.7),
  c(0.03, NA, 0.01, 0.2),
  c(1, 1, 0.99, 0.0001),
  c(0.002, 0.004, 0.006, 0.008, 0.01, 0.012, 0.014, 0.016, 0.018, 0.02, 0.022, 0.024)
)
padjust <- lapply(pvecs, function(p) list(p = arr(p), holm = arr(p.adjust(p, "holm")),
                                           bh = arr(p.adjust(p, "BH"))))

# ---- exact distributions ----
pw <- list(); qw <- list(); ps <- list(); qs <- list()
for (mn in list(c(3, 4), c(5, 5), c(10, 10), c(7, 12), c(25, 30), c(49, 49), c(1, 49))) {
  m <- mn[1]; n <- mn[2]
  for (q in unique(c(0, 1, 2, 5, floor(m * n / 3), floor(m * n / 2), m * n - 1, m * n)))
    pw[[length(pw) + 1]] <- list(m = m, n = n, q = q, p = pwilcox(q, m, n),
                                 upper = pwilcox(q, m, n, lower.tail = FALSE))
  for (k in c(0, 1, 3, floor(m * n / 4))) {
    pk <- pwilcox(k, m, n)
    for (p in unique(c(pk, pk * (1 + 1e-9), pk * (1 - 1e-9), 0.005, 0.025, 0.05)))
      if (p <= 0.5) qw[[length(qw) + 1]] <- list(m = m, n = n, p = p, q = qwilcox(p, m, n))
  }
}
for (n in c(1, 2, 5, 10, 20, 30, 49, 60)) {
  M <- n * (n + 1) / 2
  for (q in unique(c(0, 1, 3, floor(M / 3), floor(M / 2), M - 1, M)))
    ps[[length(ps) + 1]] <- list(n = n, q = q, p = psignrank(q, n),
                                 upper = psignrank(q, n, lower.tail = FALSE))
  for (k in c(0, 1, 3, floor(M / 4))) {
    pk <- psignrank(k, n)
    for (p in unique(c(pk, pk * (1 + 1e-9), pk * (1 - 1e-9), 0.005, 0.025, 0.05)))
      if (p <= 0.5) qs[[length(qs) + 1]] <- list(n = n, p = p, q = qsignrank(p, n))
  }
}

# ---- median, MAD, median interval ----
medci <- function(x, conf) {
  n <- length(x); a <- (1 - conf) / 2
  k <- 0
  while (k + 1 <= n && pbinom(k, n, 0.5) <= a) k <- k + 1 # largest k with P(B <= k-1) <= a
  if (k < 1) return(list(conf = conf, lo = NA, hi = NA, achieved = NA))
  s <- sort(x)
  list(conf = conf, lo = s[k], hi = s[n + 1 - k], achieved = 1 - 2 * pbinom(k - 1, n, 0.5))
}
set.seed(11)
mvecs <- list(c(5), c(2, 1), c(3, 1, 2, 10), c(1, 2, 3, 4, 5, 6),
              sig(rlnorm(10, 5, 0.1)), sig(rnorm(11)), sig(rnorm(31, 100, 5)),
              sig(rexp(100)), c(1, 1, 1, 2, 2, 9, 9, 9))
medians <- lapply(mvecs, function(x) list(x = arr(x), median = median(x), mad = mad(x),
                                           ci = list(medci(x, 0.9), medci(x, 0.95), medci(x, 0.99))))

# ---- geometric mean with t interval ----
set.seed(13)
gvecs <- list(c(1.02, 0.98), c(1.1, 1.2, 1.05, 0.97), sig(rlnorm(36, 0.03, 0.05)),
              sig(rlnorm(12, -0.02, 0.01)), c(2, 2, 2))
geomean <- list()
for (r in gvecs) for (l in c(0.9, 0.95, 0.99)) {
  if (sd(log(r)) > 0) {
    t <- t.test(log(r), conf.level = l)
    ci <- exp(t$conf.int)
  } else ci <- rep(exp(mean(log(r))), 2)
  geomean[[length(geomean) + 1]] <- list(ratios = arr(r), conf = l,
                                         estimate = exp(mean(log(r))), lo = ci[1], hi = ci[2])
}

# ---- minimum detectable effect and sample sizes ----
# noise: 1.4826 * median |log v - median(log of its own sample)| over both samples
spread <- function(b, c) {
  lb <- log(b); lc <- log(c)
  1.4826 * median(abs(c(lb - median(lb), lc - median(lc))))
}
ARE <- 3 / pi
mde <- list(); sfor <- list(); pmde <- list()
set.seed(17)
for (nn in list(c(5, 5), c(10, 10), c(10, 20), c(30, 30), c(4, 4), c(3, 3))) {
  b <- sig(rlnorm(nn[1], 0, 0.02), 8); cc <- sig(rlnorm(nn[2], 0.01, 0.03), 8)
  s <- spread(b, cc)
  for (ap in list(c(0.05, 0.8), c(0.01, 0.9), c(0.01 / 40, 0.95))) {
    a <- ap[1]; pw_ <- ap[2]
    minp <- 2 / choose(nn[1] + nn[2], nn[1])
    d <- if (minp > a) Inf else
      exp((qnorm(1 - a / 2) + qnorm(pw_)) * s * sqrt((1 / nn[1] + 1 / nn[2]) / ARE)) - 1
    mde[[length(mde) + 1]] <- list(base = arr(b), cand = arr(cc), alpha = a, power = pw_,
                                   spread = s, mde = d)
    for (eff in c(0.01, 0.05)) {
      n <- ceiling(2 * ((qnorm(1 - a / 2) + qnorm(pw_)) * s / log(1 + eff))^2 / ARE)
      while (2 / choose(2 * n, n) > a) n <- n + 1
      sfor[[length(sfor) + 1]] <- list(base = arr(b), cand = arr(cc), effect = eff,
                                       alpha = a, power = pw_, n = n)
    }
  }
}
for (n in c(3, 5, 8, 20, 60)) {
  lr <- sig(rnorm(n, 0.01, 0.02), 8)
  s <- 1.4826 * median(abs(lr - median(lr)))
  n <- sum(lr != 0) # the signed-rank test drops zero differences
  for (ap in list(c(0.05, 0.8), c(0.01 / 36, 0.95))) {
    a <- ap[1]; pw_ <- ap[2]
    d <- if (2 / 2^n > a) Inf else exp((qnorm(1 - a / 2) + qnorm(pw_)) * s / sqrt(n * ARE)) - 1
    pmde[[length(pmde) + 1]] <- list(log_ratios = arr(lr), alpha = a, power = pw_,
                                     spread = s, mde = d)
  }
}

cat(json(list(
  generator = "internal/stats/testdata/reference.R",
  r_version = R.version.string,
  root_tol = ROOT_TOL,
  ranksum = ranksum, signrank = signrank, padjust = padjust,
  pwilcox = pw, qwilcox = qw, psignrank = ps, qsignrank = qs,
  median = medians, geomean = geomean,
  mde = mde, samples_for = sfor, paired_mde = pmde)), "\n")
