package capture

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/mongoload/mongoload/internal/capture/source"
	"github.com/mongoload/mongoload/internal/config"
	"github.com/mongoload/mongoload/internal/mongodb"
	"github.com/mongoload/mongoload/internal/run"
)

// AppName is the appName capture connects under, so that its own
// commands can be told from the application's.
const AppName = source.AppName

// Capture is the capture command's one call: it connects to the
// deployment conn names (nil: files only), starts the trace (when
// o.TracePath is set), captures, and finishes the trace, removing it when the capture
// failed. Connection and output failures carry run's kinds; a failure to
// read the sources is a plain error.
func Capture(ctx context.Context, conn *config.Config, log io.Writer, o Options) (*Result, error) {
	var srv source.Server
	var source mongodb.Deployment
	if conn != nil {
		cl, err := connect(ctx, conn, log)
		if err != nil {
			return nil, err
		}
		defer cl.Close()
		srv = cl
		// Who the source is, recorded in the file, so that a run of it
		// against this deployment is refused (run.GuardSource).
		if source, err = cl.Deployment(ctx); err != nil {
			fmt.Fprintf(log, "capture: %v: the file cannot record its source, so nothing will refuse to run it against this deployment\n", err)
		}
	}
	// The trace starts once the source is known: its header names it, so
	// that a trace cut short (no trailer) is still refused against it.
	var tf *traceFile
	if o.TracePath != "" {
		var err error
		if tf, err = createTrace(o.TracePath, o.Databases, source); err != nil {
			return nil, err
		}
		o.Trace = tf.add
	}
	o.Deployment = strings.Join(source, ",")
	res, err := Run(ctx, srv, o)
	if err != nil && res != nil && res.Protected != "" {
		err = &ProtectedError{Why: res.Protected, Err: err}
	}
	if err != nil {
		res = nil
	} else {
		res.CapturedFrom = source
	}
	if tf != nil {
		line, terr := tf.finish(res)
		if terr != nil {
			return nil, terr
		}
		if res != nil {
			res.TraceLine = line
		}
	}
	return res, err
}

// connect connects with conn under capture's appName, so that its own
// commands can be told from the application's in the profiler.
func connect(ctx context.Context, conn *config.Config, log io.Writer) (*mongodb.Client, error) {
	if err := mongodb.CheckURI(conn.Connection.URI); err != nil {
		return nil, err
	}
	c := *conn
	c.Connection.AppName = AppName
	return run.Connect(ctx, log, &c, mongodb.ConnectOptions{})
}

// ProtectedError: capture ended its window to protect the source (the
// profiler's cost passed --max-impact) and read no operation before.
type ProtectedError struct {
	Why string
	Err error
}

func (e *ProtectedError) Error() string {
	if e.Err == nil {
		return e.Why
	}
	return e.Why + "; " + e.Err.Error()
}
func (e *ProtectedError) Unwrap() error { return e.Err }
