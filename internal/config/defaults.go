package config

import "time"

// DefaultURI is the server a run talks to when nothing else is said.
const DefaultURI = "mongodb://127.0.0.1:27017"

// Default returns the built-in defaults, the lowest configuration layer.
func Default() *Config {
	return &Config{
		Connection: Connection{
			URI:     DefaultURI,
			AppName: "mongoload",
			Timeouts: Timeouts{
				Connect:         Duration(10 * time.Second),
				ServerSelection: Duration(10 * time.Second),
			},
		},
		Run: Run{
			Concurrency:   8,
			Duration:      Duration(30 * time.Second),
			Interval:      Duration(time.Second),
			SeedBatchSize: 1000,
			RandomSeed:    1,
		},
	}
}
