package generate

import (
	"errors"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.yaml.in/yaml/v3"

	"github.com/mongoload/mongoload/internal/config"
)

// FuzzCompile feeds arbitrary YAML through config.Value into Compile and
// Append: nothing may panic, every error must be a *config.Error, and every
// value generated must be well-formed BSON.
func FuzzCompile(f *testing.F) {
	f.Add(flightTemplate)
	for _, s := range []string{
		`{$gen: int, min: 1, max: 9, nullProbability: 0.5}`,
		`{a: {$gen: long, missingProbability: 0.1}, b: [1, {c: {$gen: double, decimals: 2}}]}`,
		`{$gen: decimal, min: -5, max: 5, scale: 4}`,
		`{$gen: string, min: 0, max: 5, charset: "aé€"}`,
		`{$gen: pattern, pattern: 'X\#?*##'}`,
		`{$gen: enum, values: [{$gen: uuid}, 2, null], weights: [1, 0, 2]}`,
		`{$gen: array, of: {$gen: array, of: {$gen: binary, min: 0, max: 3}}}`,
		`{$gen: date, from: 2020-01-01, to: "2021-01-01T00:00:00Z"}`,
		`{$gen: key, distribution: latest, as: string, prefix: u}`,
		`[{$match: {k: {$gen: key, collection: users, distribution: zipfian}}}]`,
		`{$gen: regex, pattern: "^a", options: ims}`,
		`{$gen: faker, provider: number, params: {min: 1, max: 3}}`,
		`{$gen: words, min: 1, max: 3}`,
		`{t: {$gen: timestamp}, j: {$gen: javascript, code: x}, m: {$gen: minKey}, n: {$gen: maxKey}}`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		var v config.Value
		if yaml.Unmarshal([]byte(src), &v) != nil {
			return
		}
		env := testEnv(Query)
		env.PoolSize = 4
		g, err := Compile(v, env)
		if err != nil {
			var ce *config.Error
			if !errors.As(err, &ce) {
				t.Fatalf("error %v is a %T, not a *config.Error", err, err)
			}
			return
		}
		st := NewState(1, 1)
		for range 3 {
			typ, b := g.Append(nil, st)
			if err := wrapDoc(typ, b).Validate(); err != nil {
				t.Fatalf("invalid BSON for %q: %v", src, err)
			}
		}
		if v.Kind == config.KindDoc {
			d, err := CompileDocument(v, env)
			if err != nil {
				t.Fatalf("Compile accepted what CompileDocument refused: %v", err)
			}
			if err := bson.Raw(d.Append(nil, st)).Validate(); err != nil {
				t.Fatalf("invalid document for %q: %v", src, err)
			}
		}
	})
}
