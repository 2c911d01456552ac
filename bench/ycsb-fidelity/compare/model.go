package main

import (
	"math"
	"math/rand/v2"
	"strconv"
)

// latestEtaQuirk is why mongoload's latest differs from YCSB's once
// records are inserted: YCSB's ZipfianGenerator.nextLong, when the item
// count grows, adds the new terms to ζ(n) but recomputes η from the item
// count it was built with (the field items, not the argument itemcount):
const latestEtaQuirk = "request latest, once records are inserted: YCSB's ZipfianGenerator.nextLong adds the new terms " +
	"to ζ(n) but recomputes η from the item count it was built with (`items`, not `itemcount`), so past rank 1 " +
	"YCSB's latest follows neither Zipf's law nor Gray's formula (recency 2 is drawn less often than recency 3). " +
	"mongoload computes η for the current key space, as Gray's method does (internal/generate: TestDistributionLaws/latest). " +
	"The row after them models YCSB with its η and matches YCSB's draws, which shows this is the whole difference"

// ycsbLatestModel draws workload D's mix as YCSB's CoreWorkload does with
// requestdistribution=latest, written from YCSB's formulas with its η
// quirk: recordcount keys loaded, an insert with probability insert, and
// for each read the recency of the key drawn (0 the newest). It is a model
// of YCSB, used only to show that the quirk explains the difference.
func ycsbLatestModel(draws int64, recordcount int64, insert float64, seed uint64) map[string]int64 {
	const theta = 0.99
	r := rand.New(rand.NewPCG(seed, 2))
	items := recordcount - 1 // SkewedLatestGenerator: ZipfianGenerator(lastValue), lastValue = recordcount-1
	zetan := 0.0
	for i := int64(1); i <= items; i++ {
		zetan += math.Pow(float64(i), -theta)
	}
	zeta2 := 1 + math.Pow(0.5, theta)
	eta := (1 - math.Pow(2/float64(items), 1-theta)) / (1 - zeta2/zetan)
	count := items // countforzeta
	last := recordcount - 1
	h := map[string]int64{}
	for range draws {
		if r.Float64() < insert {
			last++
			continue
		}
		n := last // nextLong(max) with max = lastValue
		if n > count {
			for i := count + 1; i <= n; i++ {
				zetan += math.Pow(float64(i), -theta)
			}
			count = n
			eta = (1 - math.Pow(2/float64(items), 1-theta)) / (1 - zeta2/zetan) // items: the quirk
		}
		u := r.Float64()
		var rank int64
		switch uz := u * zetan; {
		case uz < 1:
			rank = 0
		case uz < 1+math.Pow(0.5, theta):
			rank = 1
		default:
			rank = int64(float64(n) * math.Pow(eta*u-eta+1, 1/(1-theta)))
		}
		h[strconv.FormatInt(rank, 10)]++
	}
	return h
}
