#!/usr/bin/python3
# Regenerates the fixtures of tests/unit/test_pct.c (needs Debian's
# python3-numpy; run with /usr/bin/python3 from this folder):
#   lognormal705.txt, lognormal1708.txt: latencies in ms drawn once from a
#     lognormal shaped like seed 000's steady state (median ~11.2 ms,
#     p99.9 ~45 ms), seed fixed, written with %.6f;
#   n1.txt, n2.txt, ties.txt, lerp2.txt: edge sets.
# Prints the C table of expected quantiles (type 7 = numpy "linear",
# type 1 = numpy "inverted_cdf") computed on the values read back from the
# files, i.e. on exactly the doubles the C test parses.
import numpy as np

def write(name, vals):
    with open(name, "w") as f:
        for v in vals:
            f.write("%.6f\n" % v)

def main():
    rng = np.random.default_rng(705000)
    write("lognormal705.txt", rng.lognormal(np.log(11.22), 0.45, 705))
    rng = np.random.default_rng(1708000)
    write("lognormal1708.txt", rng.lognormal(np.log(11.22), 0.45, 1708))
    write("n1.txt", [11.22])
    write("n2.txt", [3.0, 7.5])
    write("ties.txt", [1, 1, 1, 2, 2, 3, 3, 3, 3, 5, 8, 13, 13, 40])
    # a pair where numpy's two-sided lerp differs in the last bit from
    # a + (b - a) g at g >= 0.5
    write("lerp2.txt", [9.127, 30.612])
    qs = [0.0, 0.001, 0.01, 0.1, 0.25, 0.5, 0.9, 0.95, 0.99, 0.999, 0.9999, 1.0]
    for name in ["lognormal705", "lognormal1708", "n1", "n2", "ties", "lerp2"]:
        x = np.sort(np.loadtxt(name + ".txt", ndmin=1))
        for method, cname in [("linear", "COW_PCT_LINEAR"),
                              ("inverted_cdf", "COW_PCT_NEAREST")]:
            for q in qs:
                v = np.quantile(x, q, method=method)
                print('    {"%s", %s, %r, %s},' % (name, cname, q, repr(float(v))))

main()
