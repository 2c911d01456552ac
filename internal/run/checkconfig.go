package run

import (
	"errors"

	"github.com/mongoload/mongoload/internal/analysis"
	"github.com/mongoload/mongoload/internal/config"
	"github.com/mongoload/mongoload/internal/dashboard"
	"github.com/mongoload/mongoload/internal/mongodb"
	"github.com/mongoload/mongoload/internal/sink/promsink"
)

// CheckConfig is the part of a run's validation that needs other packages
// than config (the SLO's grammar, the listen addresses, the driver's URI
// parser): config.Resolve's Check, so that Validate and it report every
// mistake of a command line at once.
func CheckConfig(cfg *config.Config) config.Errors {
	var es config.Errors
	if cfg.Run.SLO != "" {
		if _, err := analysis.ParseObjectives(cfg.Run.SLO); err != nil {
			es = append(es, cfg.Refuse("run.slo", err))
		}
	}
	if cfg.Run.Dashboard != "" {
		if _, err := dashboard.ListenAddr(cfg.Run.Dashboard); err != nil {
			es = append(es, cfg.Refuse("run.dashboard", err))
		}
	}
	if cfg.Run.Prometheus != "" {
		if _, err := promsink.ListenAddr(cfg.Run.Prometheus); err != nil {
			es = append(es, cfg.Refuse("run.prometheus", err))
		}
	}
	if cfg.Run.Target != config.TargetNoop {
		es = append(es, CheckConnection(cfg)...)
	}
	return es
}

// CheckConnection is the validation of a command that only connects
// (capture, replay, verify): its URI parses. config.Resolve's Check.
func CheckConnection(cfg *config.Config) config.Errors {
	if cfg.Connection.URI == "" {
		return nil
	}
	if err := mongodb.CheckURI(cfg.Connection.URI); err != nil {
		var ce *config.Error
		if !errors.As(err, &ce) {
			ce = &config.Error{Kind: config.BadURI, Field: "connection.uri", Msg: err.Error()}
		}
		return config.Errors{ce}
	}
	return nil
}
