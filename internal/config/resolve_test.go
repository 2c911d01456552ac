package config

import (
	"strings"
	"testing"
)

// TestResolveLayers: defaults < file < environment < flags, for every
// command; Only and Hide keep a command's variables its own.
func TestResolveLayers(t *testing.T) {
	env := map[string]string{"MONGOLOAD_CONCURRENCY": "7", "MONGOLOAD_URI": "mongodb://env:1", "MONGOLOAD_DOCUMENTS": "5"}
	flags := map[string]string{"concurrency": "16"}
	src := Sources{
		Env:   func(k string) (string, bool) { v, ok := env[k]; return v, ok },
		Flags: func(k string) (string, bool) { v, ok := flags[k]; return v, ok },
	}
	file := Default()
	file.Run.Concurrency, file.Run.Rate = 2, 100
	src.File = file
	cfg, err := Resolve(src)
	if err != nil {
		t.Fatal(err)
	}
	// the flag over the variable over the file; the file over the defaults
	if cfg.Run.Concurrency != 16 || cfg.Connection.URI != "mongodb://env:1" || cfg.Run.Rate != 100 {
		t.Errorf("concurrency %d (want the flag's 16), uri %q (the variable's), rate %v (the file's 100)", cfg.Run.Concurrency, cfg.Connection.URI, cfg.Run.Rate)
	}
	// a command reading only its connection ignores the run's variables
	src.File, src.Only, src.Flags = nil, []string{"uri"}, nil
	if cfg, _ = Resolve(src); cfg.Run.Concurrency == 7 || cfg.Connection.URI != "mongodb://env:1" {
		t.Errorf("Only uri: concurrency %d from the environment, uri %q", cfg.Run.Concurrency, cfg.Connection.URI)
	}
	// a command's own option by the same layers, blamed on its source
	if v, where, ok := src.Value("documents"); !ok || v != "5" || where != "MONGOLOAD_DOCUMENTS" {
		t.Errorf("Value(documents) = %q, %q, %v", v, where, ok)
	}
	// a hidden setting is the command's own: neither layer applies it
	src.Only, src.Hide, src.Flags = nil, []string{"concurrency"}, func(k string) (string, bool) { v, ok := flags[k]; return v, ok }
	if cfg, _ = Resolve(src); cfg.Run.Concurrency == 7 || cfg.Run.Concurrency == 16 {
		t.Errorf("hidden concurrency set to %d", cfg.Run.Concurrency)
	}
}

// TestResolveEveryMistake: a bad variable and a bad flag and the
// command's own check are reported together, each naming its source.
func TestResolveEveryMistake(t *testing.T) {
	_, err := Resolve(Sources{
		Env:   func(k string) (string, bool) { return "2.7", k == "MONGOLOAD_CONCURRENCY" },
		Flags: func(k string) (string, bool) { return "-1", k == "rate" },
		Check: func(*Config) Errors { return Errors{{Kind: BadURI, Field: "connection.uri", Msg: "cannot parse"}} },
	})
	for _, want := range []string{"MONGOLOAD_CONCURRENCY", "--rate", "connection.uri"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("error %v does not name %s", err, want)
		}
	}
}

func TestEnvName(t *testing.T) {
	if got := EnvName("rate-scale"); got != "MONGOLOAD_RATE_SCALE" {
		t.Errorf("EnvName(rate-scale) = %s", got)
	}
}
