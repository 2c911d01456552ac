package cli

import (
	"fmt"
	"net"
	"net/http"
	_ "net/http/pprof" // registers /debug/pprof on the default mux, served only when asked

	"github.com/mongoload/mongoload/internal/config"
)

// startPprof serves Go's profiler on addr (loopback unless another address
// is asked for) when MONGOLOAD_PPROF is set: for finding where the load
// generator spends CPU or memory on a live run.
func startPprof(o IO) {
	addr, ok := o.Getenv(config.EnvName("pprof"))
	if !ok || addr == "" {
		return
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		fmt.Fprintf(o.Stderr, "warning: %s=%s: %v\n", config.EnvName("pprof"), addr, err)
		return
	}
	fmt.Fprintf(o.Stderr, "profiler on http://%s/debug/pprof/\n", ln.Addr())
	go func() { _ = http.Serve(ln, nil) }()
}
