package ab

import "math"

// abstats.go: the round-level test of an A/B comparison. The rank test
// over every latency treats each operation as independent, which the
// host's drift from one round to the next is not: thousands of latencies
// make a 5% drift "significant". The rounds are the replicates, so a
// shape's difference must also stand beyond the threshold in them.

// beyond is the one-sided p-value of a t-test (Student, Biometrika 6,
// 1908) that the mean of the rounds' log shifts exceeds log(bound): small
// when every round shows the shift beyond bound, with little spread. 1 with
// fewer than two rounds, where no spread can be measured.
func beyond(shifts []float64, bound float64) float64 {
	k := len(shifts)
	if k < 2 {
		return 1
	}
	var mean float64
	for _, s := range shifts {
		mean += math.Log(s)
	}
	mean /= float64(k)
	var ss float64
	for _, s := range shifts {
		d := math.Log(s) - mean
		ss += d * d
	}
	sd := math.Sqrt(ss / float64(k-1))
	excess := mean - math.Log(bound)
	if sd == 0 {
		if excess > 0 {
			return 0
		}
		return 1
	}
	t := excess / (sd / math.Sqrt(float64(k)))
	two := studentP(math.Abs(t), float64(k-1))
	if t > 0 {
		return two / 2
	}
	return 1 - two/2
}

// invert turns shifts of B over A into A over B (an improvement's test).
func invert(shifts []float64) []float64 {
	out := make([]float64, len(shifts))
	for i, s := range shifts {
		out[i] = 1 / s
	}
	return out
}

// studentP is the two-sided tail probability of Student's t with df
// degrees of freedom: I_{df/(df+t²)}(df/2, 1/2).
func studentP(t, df float64) float64 {
	return incBeta(df/2, 0.5, df/(df+t*t))
}

// incBeta is the regularized incomplete beta function I_x(a, b), by its
// continued fraction (Numerical Recipes, 2nd ed., §6.4).
func incBeta(a, b, x float64) float64 {
	switch {
	case x <= 0:
		return 0
	case x >= 1:
		return 1
	}
	la, _ := math.Lgamma(a + b)
	lb, _ := math.Lgamma(a)
	lc, _ := math.Lgamma(b)
	front := math.Exp(la - lb - lc + a*math.Log(x) + b*math.Log(1-x))
	if x < (a+1)/(a+b+2) {
		return front * betaCF(a, b, x) / a
	}
	return 1 - front*betaCF(b, a, 1-x)/b
}

// betaCF evaluates the continued fraction of incBeta (modified Lentz).
func betaCF(a, b, x float64) float64 {
	const tiny, eps = 1e-300, 1e-14
	c, d := 1.0, 1-(a+b)*x/(a+1)
	if math.Abs(d) < tiny {
		d = tiny
	}
	d = 1 / d
	h := d
	for m := 1.0; m <= 300; m++ {
		m2 := 2 * m
		aa := m * (b - m) * x / ((a + m2 - 1) * (a + m2))
		d, c = 1+aa*d, 1+aa/c
		d, c = 1/nonZero(d, tiny), nonZero(c, tiny)
		h *= d * c
		aa = -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1))
		d, c = 1+aa*d, 1+aa/c
		d, c = 1/nonZero(d, tiny), nonZero(c, tiny)
		del := d * c
		h *= del
		if math.Abs(del-1) < eps {
			break
		}
	}
	return h
}

func nonZero(v, tiny float64) float64 {
	if math.Abs(v) < tiny {
		return tiny
	}
	return v
}
