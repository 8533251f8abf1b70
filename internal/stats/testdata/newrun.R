# newrun.R — reference values for stats.NewRun, NewRuns, NewRunsFloor,
# NewRunMDE, Welch, PairedT, Dispersion and Trend,
# computed with R (base packages only).
#
# How it was run (from the repository root):
#
#     Rscript internal/stats/testdata/newrun.R > internal/stats/testdata/newrun.json
#
# NewRun tests one new run's value x against replicate runs: ref are the
# runs of the reference's code (x is compared with their mean), other are
# further runs whose level may differ (they inform the spread only, each
# group around its own mean). Under the model x, ref, other ~ N(., s^2)
# with ref and x sharing a mean under the null:
#
#   s^2 = (sum((ref - mean(ref))^2) + sum((other - mean(other))^2)) / df,
#   df  = (length(ref) - 1) + max(length(other) - 1, 0),
#   se  = s * sqrt(1 + 1/length(ref)),
#   t   = (x - mean(ref)) / se,  p = 2 * pt(-|t|, df),
#   interval (x - mean(ref)) +- qt(1 - (1 - conf)/2, df) * se.
#
# With other empty this is the classic prediction interval of one new
# observation from a normal sample. For those cases the t statistic is
# also derived from R's own t.test(ref, mu = x), whose statistic
# (mean(ref) - x) / (sd(ref) / sqrt(k)) rescaled by
# -sqrt(1/k) / sqrt(1 + 1/k) is the prediction t (t_ttest_check; null
# where there are other runs).
#
# NewRuns tests several new runs xs of one code (a file's go test
# processes) the same way: their mean against ref's, their spread around
# their own mean pooled with the others',
#
#   df  = (length(ref) - 1) + (length(xs) - 1) + max(length(other) - 1, 0),
#   se  = s * sqrt(1/length(xs) + 1/length(ref)),
#   t   = (mean(xs) - mean(ref)) / se.
#
# With one new run it is NewRun; with other empty it is Student's
# two-sample t-test with pooled variance, and t is checked against R's
# own t.test(xs, ref, var.equal = TRUE) (t_ttest_check).
#
# NewRunMDE(se, df, alpha, power) is the smallest shift d with power
# P(|T'| > qt(1 - alpha/2, df)) = power, T' noncentral t with df and
# ncp d/se, found with uniroot(tol = 1e-12) on R's pt(..., ncp = ). For
# a noncentrality above 37.62 R's pt uses the normal approximation of
# Abramowitz and Stegun 26.7.10, as gonum does above about 38.6; the last
# case (2 degrees of freedom, ncp near 120) checks that branch.
#
# Welch(x, y, conf) is R's t.test(y, x, var.equal = FALSE, conf.level =
# conf): the estimate mean(y) - mean(x), its interval, the standard error
# (stderr), the Welch-Satterthwaite degrees of freedom (parameter), the
# statistic and the p-value.
#
# PairedT(x, y, conf) is R's t.test(y, x, paired = TRUE, conf.level =
# conf), the same fields as Welch's: the mean difference, its interval,
# the standard error, n - 1 degrees of freedom, the statistic and the
# p-value.
#
# NewRunsFloor(xs, ref, other, minS, conf) is NewRuns with the spread of
# one run taken as at least minS: s = max(s, minS), the same df (runs
# that all agree are tested against minS alone). With minS below s it is
# NewRuns, and t is checked against t.test as there.
#
# Trend(t, x, segment, minS, conf) is the slope of x on t with a level of
# its own for each segment: R's lm(x ~ factor(segment) + t), or lm(x ~ t)
# for one segment, its slope, standard error, residual degrees of freedom,
# t and p from summary(); the spread s = max(sigma, minS) scales the
# standard error by s / sigma (minS alone where sigma is 0: se = minS /
# sqrt(Sxx), Sxx the sum over segments of (t - segment mean of t)^2); the
# change is slope * (last t - first t) with its interval, qt(...) * se *
# the same span. t_lm_check is summary()'s own t where minS does not
# apply.
#
# Dispersion(tests) is genomic control's lambda over the tests' (t, df):
# max(1, median(t^2 / qt(0.75, df)^2)), qt(0.75, df)^2 being the median
# of F(1, df). Inflate(f) of a NewRun case multiplies its se by f:
# t / f, p = 2 * pt(-|t / f|, df), interval est +- qt(...) * se * f.

options(warn = -1)
num <- function(v) {
  if (is.nan(v)) return("\"NaN\"")
  if (is.infinite(v)) return(if (v > 0) "\"Inf\"" else "\"-Inf\"")
  sprintf("%.17g", v)
}
arr <- function(v) if (length(v) == 0) "[]" else paste0("[", paste(vapply(v, num, ""), collapse = ", "), "]")

# pooled is the spread of one run, s, with its degrees of freedom df,
# pooled over the reference's runs and the other runs (each group around
# its own mean).
pooled <- function(ref, other) {
  ss <- sum((ref - mean(ref))^2)
  df <- length(ref) - 1
  if (length(other) > 1) {
    ss <- ss + sum((other - mean(other))^2)
    df <- df + length(other) - 1
  }
  list(s = sqrt(ss / df), df = df)
}

newrun <- function(name, x, ref, other, conf) {
  k <- length(ref)
  sp <- pooled(ref, other)
  s <- sp$s
  df <- sp$df
  se <- s * sqrt(1 + 1 / k)
  est <- x - mean(ref)
  t <- est / se
  p <- 2 * pt(-abs(t), df)
  q <- qt(1 - (1 - conf) / 2, df)
  check <- "null"
  if (length(other) == 0) {
    # t.test(ref, mu = x) has t' = (mean(ref) - x) / (sd(ref)/sqrt(k));
    # the prediction t is -t' * sqrt(1/k) / sqrt(1 + 1/k), same df.
    tt <- t.test(ref, mu = x)
    check <- num(-tt$statistic * sqrt(1 / k) / sqrt(1 + 1 / k))
  }
  sprintf(paste0('    {"name": "%s", "x": %s, "ref": %s, "other": %s, "confidence": %s,\n',
                 '     "estimate": %s, "lo": %s, "hi": %s, "s": %s, "se": %s, "df": %s, "t": %s, "p": %s, "t_ttest_check": %s}'),
          name, num(x), arr(ref), arr(other), num(conf), num(est), num(est - q * se), num(est + q * se),
          num(s), num(se), num(df), num(t), num(p), check)
}

newruns <- function(name, xs, ref, other, conf) {
  k <- length(ref)
  m <- length(xs)
  sp <- pooled(ref, other)
  ss <- sp$s^2 * sp$df + sum((xs - mean(xs))^2)
  df <- sp$df + m - 1
  s <- sqrt(ss / df)
  se <- s * sqrt(1 / m + 1 / k)
  est <- mean(xs) - mean(ref)
  t <- est / se
  p <- 2 * pt(-abs(t), df)
  q <- qt(1 - (1 - conf) / 2, df)
  check <- "null"
  if (length(other) == 0) {
    check <- num(t.test(xs, ref, var.equal = TRUE)$statistic)
  }
  sprintf(paste0('    {"name": "%s", "xs": %s, "ref": %s, "other": %s, "confidence": %s,\n',
                 '     "estimate": %s, "lo": %s, "hi": %s, "s": %s, "se": %s, "df": %s, "t": %s, "p": %s, "t_ttest_check": %s}'),
          name, arr(xs), arr(ref), arr(other), num(conf), num(est), num(est - q * se), num(est + q * se),
          num(s), num(se), num(df), num(t), num(p), check)
}

mde <- function(se, df, alpha, power) {
  tc <- qt(1 - alpha / 2, df)
  f <- function(ncp) pt(tc, df, ncp, lower.tail = FALSE) + pt(-tc, df, ncp) - power
  hi <- 1
  while (f(hi) < 0) hi <- hi * 2
  r <- uniroot(f, c(0, hi), tol = 1e-12)
  sprintf('    {"se": %s, "df": %s, "alpha": %s, "power": %s, "shift": %s, "t_crit": %s}',
          num(se), num(df), num(alpha), num(power), num(r$root * se), num(tc))
}

set.seed(14)
r6 <- signif(rnorm(6, 0, 0.03), 4)
r1 <- 0
o9 <- signif(rnorm(9, 0.05, 0.04), 4)
o4 <- signif(rnorm(4, -0.02, 0.02), 4)
r3 <- signif(rnorm(3, 0, 0.01), 4)
cases <- c(
  newrun("same_code_6", 0.071, r6, c(), 0.95),
  newrun("same_code_6_ci99", -0.02, r6, c(), 0.99),
  newrun("reference_alone_9_others", 0.12, r1, o9, 0.95),
  newrun("reference_alone_2_others", 0.3, r1, o4[1:2], 0.95),
  newrun("groups_3_and_4", 0.015, r3, o4, 0.95),
  newrun("groups_3_and_1", -0.04, r3, o4[1], 0.90),
  newrun("null_at_mean", mean(r6), r6, o9, 0.95)
)
# Five go test processes a side, as log medians: the same code, and 30%
# slower; one side of two processes against six; with other runs too.
set.seed(22)
p5 <- signif(rnorm(5, 0, 0.03), 4)
q5 <- signif(rnorm(5, 0, 0.03), 4)
s5 <- signif(rnorm(5, log(1.3), 0.03), 4)
runs <- c(
  newruns("processes_5_5_same", q5, p5, c(), 0.95),
  newruns("processes_5_5_slower", s5, p5, c(), 0.95),
  newruns("processes_2_6", q5[1:2], r6, c(), 0.99),
  newruns("processes_3_3_with_others", q5[1:3], r3, o4, 0.95)
)
mdes <- c(
  mde(0.03, 3, 0.01 / 84, 0.8),
  mde(0.03, 4, 0.01 / 84, 0.8),
  mde(0.02, 9, 0.01 / 84, 0.8),
  mde(0.02, 48, 0.01 / 84, 0.8),
  mde(0.05, 1, 0.05, 0.8),
  mde(0.01, 19, 0.01, 0.5),
  mde(1, 30, 0.05, 0.9),
  mde(0.02, 2, 0.01 / 84, 0.8)
)
inflate <- function(name, x, ref, other, conf, f) {
  sp <- pooled(ref, other)
  df <- sp$df
  se <- sp$s * sqrt(1 + 1 / length(ref)) * f
  est <- x - mean(ref)
  q <- qt(1 - (1 - conf) / 2, df)
  sprintf('    {"case": "%s", "f": %s, "se": %s, "t": %s, "p": %s, "lo": %s, "hi": %s}',
          name, num(f), num(se), num(est / se), num(2 * pt(-abs(est / se), df)), num(est - q * se), num(est + q * se))
}
dispersion <- function(name, t, df) {
  sprintf('    {"name": "%s", "t": %s, "df": %s, "lambda": %s}', name, arr(t), arr(df),
          num(max(1, median(t^2 / qt(0.75, df)^2))))
}
set.seed(1999)
inflates <- c(
  inflate("same_code_6", 0.071, r6, c(), 0.95, 1.7),
  inflate("reference_alone_9_others", 0.12, r1, o9, 0.95, 2.25),
  inflate("groups_3_and_1", -0.04, r3, o4[1], 0.90, 1.05)
)
disps <- c(
  dispersion("null_4df_84", signif(rt(84, 4), 6), rep(4, 84)),
  dispersion("inflated_2x_4df_84", signif(2 * rt(84, 4), 6), rep(4, 84)),
  dispersion("mixed_df_odd", signif(c(1.5 * rt(7, 3), 1.5 * rt(6, 9)), 6), c(rep(3, 7), rep(9, 6))),
  dispersion("below_one", c(0.1, -0.2, 0.05, 0.3), c(4, 4, 19, 19))
)
welch <- function(name, x, y, conf) {
  tt <- t.test(y, x, var.equal = FALSE, conf.level = conf)
  sprintf(paste0('    {"name": "%s", "x": %s, "y": %s, "confidence": %s,\n',
                 '     "estimate": %s, "lo": %s, "hi": %s, "se": %s, "df": %s, "t": %s, "p": %s}'),
          name, arr(x), arr(y), num(conf), num(mean(y) - mean(x)), num(tt$conf.int[1]), num(tt$conf.int[2]),
          num(tt$stderr), num(tt$parameter), num(tt$statistic), num(tt$p.value))
}
# Log counts per process: five a side, spreads of counts between
# processes (0.05% to 1%), one side bimodal, unequal sizes.
set.seed(2026)
b5 <- signif(log(1500) + rnorm(5, 0, 0.002), 8)
h5 <- signif(log(1530) + rnorm(5, 0, 0.002), 8)
a5 <- signif(log(1500) + rnorm(5, 0, 0.002), 8)
w3 <- signif(log(8e6) + rnorm(3, 0, 0.0005), 10)
w4 <- signif(log(8e6) + rnorm(4, 0, 0.01), 10)
bi <- signif(log(c(472.2e6, 472.2e6, 497.3e6, 472.2e6, 497.3e6)) + rnorm(5, 0, 1e-4), 10)
welchs <- c(
  welch("two_percent_5_5", b5, h5, 0.95),
  welch("aa_5_5", b5, a5, 0.95),
  welch("unequal_spreads_3_4", w3, w4, 0.95),
  welch("bimodal_side_99", b5 - log(1500) + log(472.2e6), bi, 0.99)
)
paired <- function(name, x, y, conf) {
  tt <- t.test(y, x, paired = TRUE, conf.level = conf)
  sprintf(paste0('    {"name": "%s", "x": %s, "y": %s, "confidence": %s,\n',
                 '     "estimate": %s, "lo": %s, "hi": %s, "se": %s, "df": %s, "t": %s, "p": %s}'),
          name, arr(x), arr(y), num(conf), num(mean(y - x)), num(tt$conf.int[1]), num(tt$conf.int[2]),
          num(tt$stderr), num(tt$parameter), num(tt$statistic), num(tt$p.value))
}
# Log counts per process pair, base and head with the same inputs: a
# per-process level both sides share (inputs drawn per process, spread
# 1%) and a little of each side's own (0.02%); a change of 0.3% and none;
# ten pairs at 99%.
set.seed(33)
lv5 <- rnorm(5, 0, 0.01)
pb5 <- signif(log(7500) + lv5 + rnorm(5, 0, 2e-4), 10)
ph5 <- signif(log(7500 * 1.003) + lv5 + rnorm(5, 0, 2e-4), 10)
pa5 <- signif(log(7500) + lv5 + rnorm(5, 0, 2e-4), 10)
lv10 <- rnorm(10, 0, 0.01)
pb10 <- signif(log(2e4) + lv10 + rnorm(10, 0, 1e-4), 10)
ph10 <- signif(log(2e4 * 0.998) + lv10 + rnorm(10, 0, 1e-4), 10)
paireds <- c(
  paired("shared_level_5", pb5, ph5, 0.95),
  paired("aa_shared_level_5", pb5, pa5, 0.95),
  paired("ten_pairs_99", pb10, ph10, 0.99)
)
newrunsfloor <- function(name, xs, ref, other, mins, conf) {
  k <- length(ref)
  m <- length(xs)
  sp <- pooled(ref, other)
  ss <- sp$s^2 * sp$df + sum((xs - mean(xs))^2)
  df <- sp$df + m - 1
  s0 <- sqrt(ss / df)
  s <- max(s0, mins)
  se <- s * sqrt(1 / m + 1 / k)
  est <- mean(xs) - mean(ref)
  t <- est / se
  p <- 2 * pt(-abs(t), df)
  q <- qt(1 - (1 - conf) / 2, df)
  check <- "null"
  if (length(other) == 0 && s0 >= mins && s0 > 0) {
    check <- num(t.test(xs, ref, var.equal = TRUE)$statistic)
  }
  sprintf(paste0('    {"name": "%s", "xs": %s, "ref": %s, "other": %s, "min_s": %s, "confidence": %s,\n',
                 '     "estimate": %s, "lo": %s, "hi": %s, "s": %s, "se": %s, "df": %s, "t": %s, "p": %s, "t_ttest_check": %s}'),
          name, arr(xs), arr(ref), arr(other), num(mins), num(conf), num(est), num(est - q * se), num(est + q * se),
          num(s), num(se), num(df), num(t), num(p), check)
}
trendcase <- function(name, t, x, seg, mins, conf) {
  fit <- if (length(unique(seg)) > 1) lm(x ~ factor(seg) + t) else lm(x ~ t)
  sm <- summary(fit)
  slope <- unname(coef(fit)["t"])
  df <- fit$df.residual
  sxx <- sum((t - ave(t, seg))^2)
  sigma <- sm$sigma
  s <- max(sigma, mins)
  se <- s / sqrt(sxx)
  tt <- slope / se
  p <- 2 * pt(-abs(tt), df)
  span <- t[length(t)] - t[1]
  q <- qt(1 - (1 - conf) / 2, df)
  check <- "null"
  if (sigma >= mins && sigma > 0) check <- num(sm$coefficients["t", "t value"])
  sprintf(paste0('    {"name": "%s", "t": %s, "x": %s, "segment": %s, "min_s": %s, "confidence": %s,\n',
                 '     "slope": %s, "se": %s, "s": %s, "df": %s, "t_stat": %s, "p": %s, "change": %s, "lo": %s, "hi": %s, "t_lm_check": %s}'),
          name, arr(t), arr(x), arr(seg), num(mins), num(conf), num(slope), num(se), num(s), num(df), num(tt), num(p),
          num(slope * span), num(slope * span - q * se * span), num(slope * span + q * se * span), check)
}
# Log counts of a history's runs (0.03% between runs): the same code, a
# step of 15% in the last two runs, runs that agree to the last digit
# tested against a floor; a floor below the runs' own spread.
set.seed(31)
c4 <- signif(log(2369.6) + rnorm(4, 0, 3e-4), 10)
c2 <- signif(log(2369.6) + rnorm(2, 0, 3e-4), 10)
j2 <- signif(log(2369.6 * 1.15) + rnorm(2, 0, 3e-4), 10)
floors <- c(
  newrunsfloor("counts_aa_floor_below", c2, c4, c(), 1e-5, 0.999),
  newrunsfloor("counts_step_floor_above", j2, c4, c(), 2e-3, 0.999),
  newrunsfloor("counts_equal_floor", log(c(2400, 2400)), log(c(2369, 2369, 2369)), c(), 3e-4, 0.99),
  newrunsfloor("one_new_run_floor_above", j2[1], c4, c(), 1e-3, 0.95)
)
# Creep: twelve runs, each +0.4% on the last, noise 0.03%; the same with
# a step left out (two segments); noise alone; a floor above the spread;
# a series on its line exactly, against a floor.
set.seed(1231)
t12 <- 0:11
creep12 <- signif(log(1000) + 0.004 * t12 + rnorm(12, 0, 3e-4), 10)
stepped <- creep12 + c(rep(0, 6), rep(0.05, 6))
flat12 <- signif(log(1000) + rnorm(12, 0, 3e-4), 10)
trends <- c(
  trendcase("creep_12", t12, creep12, rep(1, 12), 0, 0.99),
  trendcase("creep_12_step_left_out", t12, stepped, c(rep(1, 6), rep(2, 6)), 0, 0.99),
  trendcase("flat_12", t12, flat12, rep(1, 12), 0, 0.95),
  trendcase("flat_12_floor_above", t12, flat12, rep(1, 12), 2e-3, 0.95),
  trendcase("gaps_three_segments", c(0, 1, 2, 4, 5, 7, 8, 9), flat12[1:8] + 0.002 * c(0, 1, 2, 4, 5, 7, 8, 9) + c(0, 0, 0, 0.1, 0.1, -0.2, -0.2, -0.2),
            c(1, 1, 1, 2, 2, 3, 3, 3), 0, 0.999),
  trendcase("on_its_line_floor", 0:5, log(1000) + 0.003 * (0:5), rep(1, 6), 1e-3, 0.99)
)
cat("{\n")
cat('  "generator": "internal/stats/testdata/newrun.R",\n')
cat(sprintf('  "r_version": "%s",\n', R.version.string))
cat('  "newrun": [\n', paste(cases, collapse = ",\n"), "\n  ],\n", sep = "")
cat('  "newruns": [\n', paste(runs, collapse = ",\n"), "\n  ],\n", sep = "")
cat('  "mde": [\n', paste(mdes, collapse = ",\n"), "\n  ],\n", sep = "")
cat('  "inflate": [\n', paste(inflates, collapse = ",\n"), "\n  ],\n", sep = "")
cat('  "dispersion": [\n', paste(disps, collapse = ",\n"), "\n  ],\n", sep = "")
cat('  "welch": [\n', paste(welchs, collapse = ",\n"), "\n  ],\n", sep = "")
cat('  "paired": [\n', paste(paireds, collapse = ",\n"), "\n  ],\n", sep = "")
cat('  "newruns_floor": [\n', paste(floors, collapse = ",\n"), "\n  ],\n", sep = "")
cat('  "trend": [\n', paste(trends, collapse = ",\n"), "\n  ]\n", sep = "")
cat("}\n")
