package testserver

import (
	"io"
	"net"
	"sync"
	"testing"
)

// Proxy forwards TCP connections from a loopback port to a server, and can
// cut them all at once and refuse new ones for a while: connections
// dropped under a running server, which stays up.
type Proxy struct {
	ln     net.Listener
	target string
	mu     sync.Mutex
	conns  map[net.Conn]struct{}
	refuse bool
	cuts   int
}

// NewProxy listens on 127.0.0.1 and forwards to target (host:port, which
// must be on loopback); it is closed when t ends.
func NewProxy(t testing.TB, target string) *Proxy {
	t.Helper()
	host, _, err := net.SplitHostPort(target)
	if err != nil || (host != "127.0.0.1" && host != "localhost") {
		t.Fatalf("proxy target %q: loopback only", target)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &Proxy{ln: ln, target: target, conns: map[net.Conn]struct{}{}}
	go p.accept()
	t.Cleanup(p.Close)
	return p
}

// Addr is the proxy's host:port.
func (p *Proxy) Addr() string { return p.ln.Addr().String() }

func (p *Proxy) accept() {
	for {
		c, err := p.ln.Accept()
		if err != nil {
			return
		}
		p.mu.Lock()
		refuse := p.refuse
		p.mu.Unlock()
		if refuse {
			c.Close()
			continue
		}
		s, err := net.Dial("tcp", p.target)
		if err != nil {
			c.Close()
			continue
		}
		p.mu.Lock()
		p.conns[c], p.conns[s] = struct{}{}, struct{}{}
		p.mu.Unlock()
		go p.pipe(c, s)
		go p.pipe(s, c)
	}
}

func (p *Proxy) pipe(dst, src net.Conn) {
	_, _ = io.Copy(dst, src)
	dst.Close()
	src.Close()
	p.mu.Lock()
	delete(p.conns, dst)
	delete(p.conns, src)
	p.mu.Unlock()
}

// Cut closes every open connection, both ways, and sets whether new
// connections are refused (closed at once) until the next Cut or Heal.
func (p *Proxy) Cut(refuse bool) int {
	p.mu.Lock()
	defer p.mu.Unlock()
	n := len(p.conns) / 2
	for c := range p.conns {
		c.Close()
	}
	p.refuse = refuse
	p.cuts++
	return n
}

// Heal accepts new connections again.
func (p *Proxy) Heal() {
	p.mu.Lock()
	p.refuse = false
	p.mu.Unlock()
}

// Close stops the proxy and cuts every connection.
func (p *Proxy) Close() {
	p.ln.Close()
	p.Cut(true)
}
