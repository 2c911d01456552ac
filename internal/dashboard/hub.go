package dashboard

import (
	"encoding/json"
	"sync"
)

// maxEvents bounds the history kept for pages that connect late: a day of
// 1 s intervals and server samples. Beyond it the oldest half is dropped
// (run, step and result events are kept), and /api/run says so.
const maxEvents = 200_000

// subBuffer is how many events a connected page may fall behind before it
// is disconnected; its EventSource reconnects with Last-Event-ID and gets
// the rest from the history, so a slow page never holds anything up.
const subBuffer = 512

// event is one Server-Sent Event, encoded once.
type event struct {
	seq  int64
	typ  string
	data []byte
}

// hub keeps every event and hands new ones to the connected pages.
type hub struct {
	mu      sync.Mutex
	seq     int64
	events  []event
	trimmed int64 // events dropped from the history
	subs    map[*sub]struct{}
	closed  bool
}

// sub is one connected page.
type sub struct {
	ch   chan event
	gone chan struct{} // closed when the hub drops it
}

func newHub() *hub { return &hub{subs: map[*sub]struct{}{}} }

// publish appends an event and offers it to every page without waiting.
func (h *hub) publish(typ string, v any) {
	data, err := json.Marshal(v)
	if err != nil {
		data, _ = json.Marshal(map[string]string{"error": err.Error()})
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		return
	}
	h.seq++
	e := event{seq: h.seq, typ: typ, data: data}
	h.events = append(h.events, e)
	if len(h.events) > maxEvents {
		h.trim()
	}
	for s := range h.subs {
		select {
		case s.ch <- e:
		default: // fallen behind: it reconnects and replays from the history
			delete(h.subs, s)
			close(s.gone)
		}
	}
}

// trim drops the oldest half of the interval and server events.
func (h *hub) trim() {
	kept := h.events[:0]
	drop := int64(len(h.events) / 2)
	for _, e := range h.events {
		if drop > 0 && (e.typ == "interval" || e.typ == "server" || e.typ == "progress") {
			drop--
			h.trimmed++
			continue
		}
		kept = append(kept, e)
	}
	h.events = kept
}

// subscribe returns the events after since and a subscription to the rest.
func (h *hub) subscribe(since int64) ([]event, *sub) {
	h.mu.Lock()
	defer h.mu.Unlock()
	var past []event
	for i := range h.events {
		if h.events[i].seq > since {
			past = h.events[i:]
			break
		}
	}
	past = append([]event(nil), past...)
	s := &sub{ch: make(chan event, subBuffer), gone: make(chan struct{})}
	if h.closed {
		close(s.gone)
		return past, s
	}
	h.subs[s] = struct{}{}
	return past, s
}

func (h *hub) unsubscribe(s *sub) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if _, ok := h.subs[s]; ok {
		delete(h.subs, s)
		close(s.gone)
	}
}

// all returns the events of one type, in order.
func (h *hub) all(typ string) []json.RawMessage {
	h.mu.Lock()
	defer h.mu.Unlock()
	out := []json.RawMessage{}
	for _, e := range h.events {
		if e.typ == typ {
			out = append(out, e.data)
		}
	}
	return out
}

// close disconnects every page.
func (h *hub) close() {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.closed = true
	for s := range h.subs {
		delete(h.subs, s)
		close(s.gone)
	}
}
