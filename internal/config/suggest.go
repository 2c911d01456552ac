package config

// Closest returns the option nearest to name by edit distance, or "" when
// none is near enough to be a plausible typo.
func Closest(name string, options []string) string {
	best, bestDist := "", len(name)/2+2
	for _, o := range options {
		if d := editDistance(name, o); d < bestDist {
			best, bestDist = o, d
		}
	}
	return best
}

// DidYouMean renders Closest as a hint suffix such as ` (did you mean "x"?)`.
func DidYouMean(name string, options []string) string {
	if c := Closest(name, options); c != "" {
		return ` (did you mean "` + c + `"?)`
	}
	return ""
}

// editDistance is the optimal string alignment distance (Levenshtein plus
// adjacent transpositions, the commonest typo), case-insensitive on ASCII.
func editDistance(a, b string) int {
	d := make([][]int, len(a)+1)
	for i := range d {
		d[i] = make([]int, len(b)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(a); i++ {
		for j := 1; j <= len(b); j++ {
			cost := 1
			if lower(a[i-1]) == lower(b[j-1]) {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && lower(a[i-1]) == lower(b[j-2]) && lower(a[i-2]) == lower(b[j-1]) {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(a)][len(b)]
}

func lower(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}
