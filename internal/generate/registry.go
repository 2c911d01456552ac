package generate

import (
	"maps"
	"slices"
)

// spec is one generator of the dispatch table: its builder and the
// parameters it takes besides nullProbability and missingProbability.
type spec struct {
	build  func(p *params) (Generator, error)
	params []string
}

// registry is the dispatch table from generator name to spec. It is filled
// in init because builders such as enum and array compile nested values,
// which consults the registry: a plain initializer would be a cycle.
var registry map[string]spec

func init() {
	registry = map[string]spec{
		"objectId":   {buildObjectID, nil},
		"int":        {buildInt, []string{"min", "max", "distribution"}},
		"long":       {buildLong, []string{"min", "max", "distribution"}},
		"double":     {buildDouble, []string{"min", "max", "decimals"}},
		"decimal":    {buildDecimal, []string{"min", "max", "scale"}},
		"bool":       {buildBool, []string{"probability"}},
		"date":       {buildDate, []string{"from", "to"}},
		"now":        {buildNow, nil},
		"string":     {buildString, []string{"length", "min", "max", "lengthDistribution", "charset"}},
		"pattern":    {buildPattern, []string{"pattern"}},
		"faker":      {buildFaker, []string{"provider", "params"}},
		"words":      {buildWords, []string{"min", "max"}},
		"sentence":   {buildSentence, []string{"words"}},
		"enum":       {buildEnum, []string{"values", "weights"}},
		"range":      {buildRange, []string{"lower", "width", "ops"}},
		"uuid":       {buildUUID, nil},
		"binary":     {buildBinary, []string{"length", "min", "max", "lengthDistribution", "bytes"}},
		"array":      {buildArray, []string{"of", "length", "min", "max"}},
		"timestamp":  {buildTimestamp, nil},
		"regex":      {buildRegex, []string{"pattern", "options"}},
		"minKey":     {buildMinKey, nil},
		"maxKey":     {buildMaxKey, nil},
		"javascript": {buildJavaScript, []string{"code"}},
		"var":        {buildVar, []string{"name", "negate"}},
		"series":     {buildSeries, []string{"count", "prefix"}},
		"seriesTime": {buildSeriesTime, []string{"start", "every", "jitter"}},
		"walk":       {buildWalk, []string{"start", "step", "min", "max"}},
		"cycle":      {buildCycle, []string{"mean", "amplitude", "period", "noise"}},
		"key":        {buildKey, append(slices.Clip(keyParams), distributionParams()...)},
	}
	for name, draw := range fakers {
		registry[name] = spec{build: poolBuilder(name, draw)}
	}
}

// Names returns all generator names, sorted.
func Names() []string {
	return slices.Sorted(maps.Keys(registry))
}
