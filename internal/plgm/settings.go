package plgm

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// mixKeys are plgm's operation types, in the order its percentages are
// normalized.
var mixKeys = []string{"find", "update", "delete", "insert", "aggregate", "transaction", "bulk_insert"}

// settings is what mongoload takes from plgm's config.yaml and PLGM_*
// environment variables.
type settings struct {
	uri, username, password, authSource, readPreference string
	options                                             map[string]string
	maxPool, minPool                                    uint64
	connectTimeout, selectionTimeout                    time.Duration
	collectionsPath, queriesPath                        string
	defaultWorkload, defaultWorkloadSet                 bool
	drop, skipSeed                                      bool
	documents                                           int64
	seedBatch, concurrency, insertBatch                 int
	findLimit                                           int64
	duration                                            time.Duration
	randomSeed                                          int64
	interval                                            time.Duration
	useTransactions                                     bool
	percent                                             map[string]int
	pinned                                              map[string]bool // set by PLGM_*_PERCENT
	distribution                                        []any           // key distribution of queries (access_pattern)
	hotData, hotOpn                                     float64
}

// defaultSettings are plgm's documented defaults (its README and shipped
// config.yaml): 4 workers for 10s, no seeding, and the mix find 50,
// update 20, delete 10, insert 5, bulk insert 5, aggregate 5, transaction 5.
func defaultSettings(withConfigFile bool) *settings {
	s := &settings{options: map[string]string{}, pinned: map[string]bool{}, percent: map[string]int{},
		concurrency: 4, duration: 10 * time.Second, skipSeed: true, documents: 1000,
		seedBatch: 1000, insertBatch: 10, findLimit: 5, defaultWorkload: true, hotData: 0.2, hotOpn: 0.8}
	if !withConfigFile {
		// A config.yaml replaces the mix: the percentages it leaves out are 0.
		s.percent = map[string]int{"find": 50, "update": 20, "delete": 10, "insert": 5, "bulk_insert": 5, "aggregate": 5, "transaction": 5}
	}
	return s
}

// knob is one plgm setting: its key in config.yaml, its PLGM_ variable,
// and how it applies.
type knob struct {
	yaml, env string
	set       func(s *settings, v string) error
}

func intKnob(f func(s *settings) *int) func(*settings, string) error {
	return func(s *settings, v string) error {
		n, err := strconv.Atoi(strings.TrimSpace(v))
		if err != nil || n < 0 {
			return fmt.Errorf("%q is not a whole number of 0 or more", v)
		}
		*f(s) = n
		return nil
	}
}

func boolKnob(f func(s *settings) *bool) func(*settings, string) error {
	return func(s *settings, v string) error {
		b, err := strconv.ParseBool(strings.TrimSpace(v))
		if err != nil {
			return fmt.Errorf("%q is not true or false", v)
		}
		*f(s) = b
		return nil
	}
}

func strKnob(f func(s *settings) *string) func(*settings, string) error {
	return func(s *settings, v string) error { *f(s) = v; return nil }
}

func percentKnob(op string) func(*settings, string) error {
	return func(s *settings, v string) error {
		n, err := strconv.Atoi(strings.TrimSpace(v))
		if err != nil || n < 0 {
			return fmt.Errorf("%q is not a percentage (a whole number of 0 or more)", v)
		}
		s.percent[op] = n
		return nil
	}
}

func secondsKnob(f func(s *settings) *time.Duration) func(*settings, string) error {
	return func(s *settings, v string) error {
		n, err := strconv.Atoi(strings.TrimSpace(v))
		if err != nil || n < 0 {
			return fmt.Errorf("%q is not a whole number of seconds", v)
		}
		*f(s) = time.Duration(n) * time.Second
		return nil
	}
}

func optionKnob(name string) func(*settings, string) error {
	return func(s *settings, v string) error {
		if v != "" {
			s.options[name] = v
		}
		return nil
	}
}

var knobs = []knob{
	{"uri", "PLGM_URI", strKnob(func(s *settings) *string { return &s.uri })},
	{"connection_params.username", "PLGM_USERNAME", strKnob(func(s *settings) *string { return &s.username })},
	{"", "PLGM_PASSWORD", strKnob(func(s *settings) *string { return &s.password })},
	{"connection_params.auth_source", "", strKnob(func(s *settings) *string { return &s.authSource })},
	{"connection_params.read_preference", "PLGM_READ_PREFERENCE", strKnob(func(s *settings) *string { return &s.readPreference })},
	{"connection_params.replicaset_name", "PLGM_REPLICASET_NAME", optionKnob("replicaSet")},
	{"connection_params.direct_connection", "PLGM_DIRECT_CONNECTION", func(s *settings, v string) error {
		b, err := strconv.ParseBool(strings.TrimSpace(v))
		if err != nil {
			return fmt.Errorf("%q is not true or false", v)
		}
		if b {
			s.options["directConnection"] = "true"
		} else {
			delete(s.options, "directConnection")
		}
		return nil
	}},
	{"connection_params.tls_ca_file", "PLGM_TLS_CA_FILE", optionKnob("tlsCAFile")},
	{"connection_params.tlsCertificateKeyFile", "PLGM_TLS_CERTIFICATE_KEY_FILE", optionKnob("tlsCertificateKeyFile")},
	{"connection_params.connection_timeout", "", secondsKnob(func(s *settings) *time.Duration { return &s.connectTimeout })},
	{"connection_params.server_selection_timeout", "", secondsKnob(func(s *settings) *time.Duration { return &s.selectionTimeout })},
	{"connection_params.max_pool_size", "", poolKnob(false)},
	{"connection_params.min_pool_size", "", poolKnob(true)},
	{"max_pool_size", "", poolKnob(false)},
	{"min_pool_size", "", poolKnob(true)},
	{"default_workload", "PLGM_DEFAULT_WORKLOAD", func(s *settings, v string) error {
		s.defaultWorkloadSet = true
		return boolKnob(func(s *settings) *bool { return &s.defaultWorkload })(s, v)
	}},
	{"collections_path", "PLGM_COLLECTIONS_PATH", strKnob(func(s *settings) *string { return &s.collectionsPath })},
	{"queries_path", "PLGM_QUERIES_PATH", strKnob(func(s *settings) *string { return &s.queriesPath })},
	{"drop_collections", "PLGM_DROP_COLLECTIONS", boolKnob(func(s *settings) *bool { return &s.drop })},
	{"skip_seed", "PLGM_SKIP_SEED", boolKnob(func(s *settings) *bool { return &s.skipSeed })},
	{"documents_count", "PLGM_DOCUMENTS_COUNT", func(s *settings, v string) error {
		n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
		if err != nil || n < 0 {
			return fmt.Errorf("%q is not a number of documents", v)
		}
		s.documents = n
		return nil
	}},
	{"seed_batch_size", "PLGM_SEED_BATCH_SIZE", intKnob(func(s *settings) *int { return &s.seedBatch })},
	{"concurrency", "PLGM_CONCURRENCY", intKnob(func(s *settings) *int { return &s.concurrency })},
	{"duration", "PLGM_DURATION", func(s *settings, v string) error {
		d, err := time.ParseDuration(strings.TrimSpace(v))
		if err != nil && strings.TrimSpace(v) == "0" {
			d, err = 0, nil
		}
		if err != nil || d < 0 {
			return fmt.Errorf("%q is not a duration such as 60s or 5m", v)
		}
		s.duration = d
		return nil
	}},
	{"find_percent", "PLGM_FIND_PERCENT", percentKnob("find")},
	{"update_percent", "PLGM_UPDATE_PERCENT", percentKnob("update")},
	{"delete_percent", "PLGM_DELETE_PERCENT", percentKnob("delete")},
	{"insert_percent", "PLGM_INSERT_PERCENT", percentKnob("insert")},
	{"aggregate_percent", "PLGM_AGGREGATE_PERCENT", percentKnob("aggregate")},
	{"transaction_percent", "PLGM_TRANSACTION_PERCENT", percentKnob("transaction")},
	{"bulk_insert_percent", "PLGM_BULK_INSERT_PERCENT", percentKnob("bulk_insert")},
	{"use_transactions", "PLGM_USE_TRANSACTIONS", boolKnob(func(s *settings) *bool { return &s.useTransactions })},
	{"insert_batch_size", "PLGM_INSERT_BATCH_SIZE", intKnob(func(s *settings) *int { return &s.insertBatch })},
	{"find_limit", "PLGM_FIND_LIMIT", func(s *settings, v string) error {
		n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
		if err != nil || n < 0 {
			return fmt.Errorf("%q is not a whole number", v)
		}
		s.findLimit = n
		return nil
	}},
	{"random_seed", "PLGM_RANDOM_SEED", func(s *settings, v string) error {
		n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
		if err != nil {
			return fmt.Errorf("%q is not a whole number", v)
		}
		s.randomSeed = n
		return nil
	}},
	{"status_refresh_rate_sec", "PLGM_STATUS_REFRESH_RATE_SEC", secondsKnob(func(s *settings) *time.Duration { return &s.interval })},
	{"access_pattern.kind", "PLGM_ACCESS_PATTERN_KIND", func(s *settings, v string) error {
		switch strings.ToLower(strings.TrimSpace(v)) {
		case "", "uniform":
			s.distribution = nil
		case "zipfian":
			s.distribution = []any{"distribution", "zipfian"}
		case "hotspot":
			s.distribution = []any{"distribution", "hotspot"}
		default:
			return fmt.Errorf("%q is not uniform, zipfian or hotspot", v)
		}
		return nil
	}},
	{"access_pattern.hotspot_percent", "PLGM_ACCESS_PATTERN_HOTSPOT_PERCENT", fractionKnob(func(s *settings) *float64 { return &s.hotData })},
	{"access_pattern.hotspot_traffic_percent", "PLGM_ACCESS_PATTERN_HOTSPOT_TRAFFIC_PERCENT", fractionKnob(func(s *settings) *float64 { return &s.hotOpn })},
}

func poolKnob(minimum bool) func(*settings, string) error {
	return func(s *settings, v string) error {
		n, err := strconv.ParseUint(strings.TrimSpace(v), 10, 64)
		if err != nil {
			return fmt.Errorf("%q is not a whole number", v)
		}
		if minimum {
			s.minPool = n
		} else {
			s.maxPool = n
		}
		return nil
	}
}

func fractionKnob(f func(s *settings) *float64) func(*settings, string) error {
	return func(s *settings, v string) error {
		n, err := strconv.Atoi(strings.TrimSpace(v))
		if err != nil || n < 0 || n > 100 {
			return fmt.Errorf("%q is not a percentage from 0 to 100", v)
		}
		*f(s) = float64(n) / 100
		return nil
	}
}

// unsupported are plgm settings that change what runs but have no
// mongoload equivalent here: each gets a warning when it is on.
var unsupported = []struct {
	yaml, env string
	on        func(v string) bool
	msg       string
}{
	{"use_transactions", "PLGM_USE_TRANSACTIONS", isTrue, "transactions are not supported: the transaction share of the mix is left out"},
	{"think_time_ms", "PLGM_THINK_TIME_MS", isPositive, "think time is not supported here (see mongoload run --sessions --think-time); ignored"},
	{"think_jitter_ms", "PLGM_THINK_JITTER_MS", isPositive, "think time jitter is not supported; ignored"},
	{"iterations", "PLGM_ITERATIONS", func(v string) bool { n, _ := strconv.Atoi(v); return n > 1 }, "repeated iterations are not supported: the workload runs once"},
	{"interval_delay", "PLGM_INTERVAL_DELAY", func(v string) bool { return v != "" && v != "0s" && v != "0" }, "there is only one iteration: ignored"},
	{"load_profile.kind", "PLGM_LOAD_PROFILE_KIND", func(v string) bool { return v != "" && v != "fixed" }, "load profiles are not converted (see mongoload run --stages); the run keeps a fixed concurrency"},
	{"load_profile.workers", "PLGM_LOAD_PROFILE_WORKERS", isPositive, "load profiles are not converted; use --concurrency"},
	{"raw_injector.enabled", "PLGM_INJECTOR", isTrue, "the raw injector is not a workload: use mongoload load for bulk inserts"},
	{"access_pattern.zipfian_exponent", "PLGM_ACCESS_PATTERN_ZIPFIAN_EXPONENT", func(v string) bool { return v != "" && v != "0" && v != "0.99" }, "mongoload's zipfian uses YCSB's constant 0.99; the exponent is ignored"},
}

func isTrue(v string) bool     { b, _ := strconv.ParseBool(v); return b }
func isPositive(v string) bool { n, _ := strconv.ParseFloat(v, 64); return n > 0 }

// inert are plgm settings with no bearing on the workload's meaning
// (output, the web UI, plgm's internals): read and ignored silently.
var inert = []string{
	"debug", "debug_mode", "pprof_enabled", "find_batch_size", "use_findone_for_limit_one", "insert_cache_size",
	"op_timeout_ms", "retry_attempts", "retry_backoff_ms", "max_transaction_ops", "existing_record_hit_rate",
	"record_pool_max_size", "record_pool_bootstrap_sample", "sharding_mode", "sharding_skip_generic_without_config",
	"connection_params.max_idle_time", "web_ui", "raw_injector", "csv_export_enabled", "csv_export_append", "csv_export_path",
	"load_profile", "insights_",
}

// normalize makes the percentages sum to 100 the way plgm does: without
// transactions their share is 0; percentages pinned by the environment
// keep their values (scaled down if they pass 100 together) and the others
// share the rest in proportion, truncated; what rounding leaves goes to
// find.
func (s *settings) normalize() {
	p := s.percent
	if !s.useTransactions {
		p["transaction"] = 0
		delete(s.pinned, "transaction")
	}
	pinnedTotal, otherTotal := 0, 0
	for _, k := range mixKeys {
		if s.pinned[k] {
			pinnedTotal += p[k]
		} else {
			otherTotal += p[k]
		}
	}
	scale := func(pinned bool, factor float64) {
		for _, k := range mixKeys {
			if s.pinned[k] == pinned {
				p[k] = int(float64(p[k]) * factor)
			}
		}
	}
	switch {
	case pinnedTotal >= 100:
		scale(false, 0)
		if pinnedTotal > 100 {
			scale(true, 100/float64(pinnedTotal))
		}
	case otherTotal > 0:
		scale(false, float64(100-pinnedTotal)/float64(otherTotal))
	default:
		p["find"] += 100 - pinnedTotal
	}
	total := 0
	for _, k := range mixKeys {
		total += p[k]
	}
	p["find"] += 100 - total
}
