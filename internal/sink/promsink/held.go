package promsink

import (
	"fmt"
	"net"
	"sync"
)

// Held is the endpoint's port, bound once for a whole session (Hold),
// before the server is touched: each measured run serves on a View of it,
// and closing a view ends that run's serving without letting the port go.
// Checking a port, letting it go and binding it again later lost it to
// whatever took it in between, after --drop and seeding (issue 30); a
// held port cannot be taken, between the check and the first run or
// between the steps of a sweep.
type Held struct {
	ln    net.Listener
	conns chan accepted
	stop  chan struct{}
	once  sync.Once
}

type accepted struct {
	c   net.Conn
	err error
}

// Hold binds addr (see ListenAddr) for as long as the session lasts;
// Close lets it go.
func Hold(addr string) (*Held, error) {
	a, err := ListenAddr(addr)
	if err != nil {
		return nil, err
	}
	ln, err := net.Listen("tcp", a)
	if err != nil {
		return nil, fmt.Errorf("prometheus endpoint: %w", err)
	}
	h := &Held{ln: ln, conns: make(chan accepted), stop: make(chan struct{})}
	go h.pump()
	return h, nil
}

// pump accepts for whichever view is serving: a scrape that arrives
// between two runs waits for the next one.
func (h *Held) pump() {
	for {
		c, err := h.ln.Accept()
		select {
		case h.conns <- accepted{c, err}:
		case <-h.stop:
			if c != nil {
				_ = c.Close()
			}
			return
		}
		if err != nil {
			return // the listener is closed
		}
	}
}

// Addr is the address held, with the port it got.
func (h *Held) Addr() net.Addr { return h.ln.Addr() }

// Close lets the port go.
func (h *Held) Close() error {
	h.once.Do(func() { close(h.stop) })
	return h.ln.Close()
}

// View is a listener on the held port for one run's server; its Close
// ends its Accept, not the port.
func (h *Held) View() net.Listener { return &view{h: h, done: make(chan struct{})} }

type view struct {
	h    *Held
	done chan struct{}
	once sync.Once
}

func (v *view) Accept() (net.Conn, error) {
	select {
	case a := <-v.h.conns:
		return a.c, a.err
	case <-v.done:
		return nil, net.ErrClosed
	case <-v.h.stop:
		return nil, net.ErrClosed
	}
}

func (v *view) Close() error   { v.once.Do(func() { close(v.done) }); return nil }
func (v *view) Addr() net.Addr { return v.h.Addr() }
