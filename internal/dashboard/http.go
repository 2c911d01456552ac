package dashboard

import (
	"bytes"
	"embed"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"time"

	htmlreport "github.com/mongoload/mongoload/internal/report/html"
)

//go:embed assets
var assets embed.FS

// heartbeat keeps idle event streams open through proxies.
const heartbeat = 15 * time.Second

// csp lets the page load only from the dashboard itself.
const csp = "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; connect-src 'self'"

func (s *Server) routes() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", s.static("assets/index.html", "text/html; charset=utf-8"))
	mux.HandleFunc("GET /assets/dashboard.js", s.static("assets/dashboard.js", "text/javascript; charset=utf-8"))
	mux.HandleFunc("GET /assets/dashboard.css", s.static("assets/dashboard.css", "text/css; charset=utf-8"))
	mux.HandleFunc("GET /assets/uPlot.min.js", text(htmlreport.UPlotJS(), "text/javascript; charset=utf-8"))
	mux.HandleFunc("GET /assets/uPlot.min.css", text(htmlreport.UPlotCSS(), "text/css; charset=utf-8"))
	mux.HandleFunc("GET /assets/LICENSE-uPlot", text(htmlreport.UPlotLicense(), "text/plain; charset=utf-8"))
	mux.HandleFunc("GET /api/run", s.apiRun)
	mux.HandleFunc("GET /api/snapshots", s.apiAll("interval"))
	mux.HandleFunc("GET /api/server", s.apiAll("server"))
	mux.HandleFunc("GET /api/result", s.apiResult)
	mux.HandleFunc("GET /api/events", s.apiEvents)
	mux.HandleFunc("GET /results.json", s.download(false))
	mux.HandleFunc("GET /report.html", s.download(true))
	return headers(mux)
}

// headers sets what every reply carries.
func headers(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Security-Policy", csp)
		w.Header().Set("X-Content-Type-Options", "nosniff")
		w.Header().Set("Cache-Control", "no-store")
		h.ServeHTTP(w, r)
	})
}

func (s *Server) static(name, typ string) http.HandlerFunc {
	data, err := assets.ReadFile(name)
	if err != nil {
		panic(err) // embedded at build time: a missing file is a build mistake
	}
	return func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", typ)
		_, _ = w.Write(data)
	}
}

func text(body, typ string) http.HandlerFunc {
	return func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", typ)
		_, _ = w.Write([]byte(body))
	}
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	enc := json.NewEncoder(w)
	_ = enc.Encode(v)
}

func (s *Server) apiRun(w http.ResponseWriter, _ *http.Request) {
	s.mu.Lock()
	info := s.info
	if info.Sweep != nil {
		sw := *info.Sweep
		sw.Steps = append([]StepEvent(nil), sw.Steps...)
		info.Sweep = &sw
	}
	s.mu.Unlock()
	s.hub.mu.Lock()
	info.Trimmed = s.hub.trimmed
	s.hub.mu.Unlock()
	writeJSON(w, info)
}

// apiAll answers with every event of one type so far, as a JSON array.
func (s *Server) apiAll(typ string) http.HandlerFunc {
	return func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		all := s.hub.all(typ)
		_, _ = w.Write([]byte("["))
		for i, e := range all {
			if i > 0 {
				_, _ = w.Write([]byte(","))
			}
			_, _ = w.Write(e)
		}
		_, _ = w.Write([]byte("]\n"))
	}
}

func (s *Server) apiResult(w http.ResponseWriter, _ *http.Request) {
	s.mu.Lock()
	res := s.result
	s.mu.Unlock()
	if res == nil {
		http.Error(w, "no result yet: the measured phase has not ended", http.StatusNotFound)
		return
	}
	writeJSON(w, lean(res))
}

// apiEvents streams the events as Server-Sent Events: first those after
// Last-Event-ID (or ?since=N; all of them by default), then each new one.
func (s *Server) apiEvents(w http.ResponseWriter, r *http.Request) {
	fl, ok := w.(http.Flusher)
	if !ok {
		http.Error(w, "streaming unsupported", http.StatusInternalServerError)
		return
	}
	since := int64(0)
	for _, v := range []string{r.Header.Get("Last-Event-ID"), r.URL.Query().Get("since")} {
		if n, err := strconv.ParseInt(v, 10, 64); err == nil && n > since {
			since = n
		}
	}
	past, sub := s.hub.subscribe(since)
	defer s.hub.unsubscribe(sub)
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("X-Accel-Buffering", "no")
	var b bytes.Buffer
	b.WriteString("retry: 2000\n\n")
	for _, e := range past {
		writeEvent(&b, e)
		if b.Len() > 64<<10 {
			if _, err := w.Write(b.Bytes()); err != nil {
				return
			}
			b.Reset()
		}
	}
	if _, err := w.Write(b.Bytes()); err != nil {
		return
	}
	fl.Flush()
	tick := time.NewTicker(heartbeat)
	defer tick.Stop()
	for {
		select {
		case e := <-sub.ch:
			b.Reset()
			writeEvent(&b, e)
		drain:
			for {
				select {
				case e := <-sub.ch:
					writeEvent(&b, e)
				default:
					break drain
				}
			}
			if _, err := w.Write(b.Bytes()); err != nil {
				return
			}
			fl.Flush()
		case <-tick.C:
			if _, err := fmt.Fprint(w, ": ping\n\n"); err != nil {
				return
			}
			fl.Flush()
		case <-sub.gone:
			return // fallen behind or closing: the page reconnects from its last id
		case <-r.Context().Done():
			return
		}
	}
}

func writeEvent(b *bytes.Buffer, e event) {
	fmt.Fprintf(b, "id: %d\nevent: %s\ndata: ", e.seq, e.typ)
	b.Write(e.data)
	b.WriteString("\n\n")
}

// download serves the final results as JSON, or the HTML report.
func (s *Server) download(html bool) http.HandlerFunc {
	return func(w http.ResponseWriter, _ *http.Request) {
		s.mu.Lock()
		res, sw, finished := s.result, s.sweep, s.info.State == "finished"
		s.mu.Unlock()
		if !finished || (res == nil && sw == nil) {
			http.Error(w, "not yet: the report is offered once the run is over", http.StatusNotFound)
			return
		}
		name := "mongoload-results"
		if sw != nil {
			name = "mongoload-sweep"
		}
		if !html {
			w.Header().Set("Content-Disposition", `attachment; filename="`+name+`.json"`)
			if sw != nil {
				writeJSON(w, sw)
			} else {
				writeJSON(w, res)
			}
			return
		}
		if s.o.HTMLReport == nil {
			http.Error(w, "no HTML report in this build: take the JSON results", http.StatusNotFound)
			return
		}
		var b bytes.Buffer
		if sw != nil {
			res = nil
		}
		if err := s.o.HTMLReport(&b, res, sw); err != nil {
			http.Error(w, "HTML report: "+err.Error(), http.StatusInternalServerError)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Content-Disposition", `attachment; filename="`+name+`.html"`)
		_, _ = w.Write(b.Bytes())
	}
}
