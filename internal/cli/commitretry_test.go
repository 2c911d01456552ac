package cli

import (
	"bytes"
	"context"
	"io"
	"net"
	"net/url"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/mongoload/mongoload/internal/mongodb"
	"github.com/mongoload/mongoload/internal/results"
	"github.com/mongoload/mongoload/internal/testserver"
)

// cmdCutter is a TCP proxy to the real server that counts the wire
// messages holding needle (a command's name, say) and drops the connection,
// instead of forwarding the message, for those whose count cut says to:
// the client never gets a reply, as when a server dies mid-command.
type cmdCutter struct {
	ln     net.Listener
	target string
	needle []byte
	cut    func(n int64) bool
	seen   atomic.Int64 // messages holding needle, cut or not
	cuts   atomic.Int64
	wg     sync.WaitGroup
}

func newCmdCutter(t *testing.T, target string, needle []byte, cut func(n int64) bool) *cmdCutter {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &cmdCutter{ln: ln, target: target, needle: needle, cut: cut}
	p.wg.Add(1)
	go p.accept()
	t.Cleanup(func() { ln.Close(); p.wg.Wait() })
	return p
}

// newCommitCutter cuts the first n commitTransaction commands: the driver's
// UnknownTransactionCommitResult.
func newCommitCutter(t *testing.T, target string, n int64) *cmdCutter {
	return newCmdCutter(t, target, []byte("commitTransaction\x00"), func(i int64) bool { return i <= n })
}

// proxied returns uri with its host replaced by the proxy's.
func (p *cmdCutter) proxied(t *testing.T, uri string) string {
	u, err := url.Parse(uri)
	if err != nil {
		t.Fatal(err)
	}
	u.Host = p.ln.Addr().String()
	q := u.Query()
	q.Set("directConnection", "true") // the replica set's hello names the real port
	u.RawQuery = q.Encode()
	return u.String()
}

func (p *cmdCutter) accept() {
	defer p.wg.Done()
	for {
		c, err := p.ln.Accept()
		if err != nil {
			return
		}
		s, err := net.Dial("tcp", p.target)
		if err != nil {
			c.Close()
			continue
		}
		go func() { _, _ = io.Copy(c, s); c.Close() }()
		go p.forward(c, s)
	}
}

// forward copies client messages to the server one wire message at a time.
func (p *cmdCutter) forward(c, s net.Conn) {
	defer c.Close()
	defer s.Close()
	var hdr [4]byte
	for {
		if _, err := io.ReadFull(c, hdr[:]); err != nil {
			return
		}
		n := int(uint32(hdr[0]) | uint32(hdr[1])<<8 | uint32(hdr[2])<<16 | uint32(hdr[3])<<24)
		if n < 4 || n > 48<<20 {
			return
		}
		msg := make([]byte, n)
		copy(msg, hdr[:])
		if _, err := io.ReadFull(c, msg[4:]); err != nil {
			return
		}
		if bytes.Contains(msg, p.needle) && p.cut(p.seen.Add(1)) {
			p.cuts.Add(1)
			return // cut: neither forwarded nor answered
		}
		if _, err := s.Write(msg); err != nil {
			return
		}
	}
}

// TestClosedLoopCountsCommitRetries: a closed-loop run of a transaction whose
// first commits are cut counts every commitTransaction beyond the one each
// transaction needs as a commit retry. The oracle is the proxy's own count
// of the commit commands that crossed it: sent - transactions = retries.
// (Before, only open loop and sessions counted them: closed loop said 0.)
func TestClosedLoopCountsCommitRetries(t *testing.T) {
	uri := testserver.URI(t)
	u, err := url.Parse(uri)
	if err != nil {
		t.Fatal(err)
	}
	const cut = 3 // the first commit, the driver's own retry of it, and one more
	proxy := newCommitCutter(t, u.Host, cut)
	w := uniqueDB(t, `
collections:
  - {database: mltest, name: acct, seed: 10, template: {k: {$gen: key}, n: 0}}
operations:
  - name: pay
    type: transaction
    weight: 1
    let: {k: {$gen: key, collection: acct}}
    steps:
      - {name: bump, type: updateOne, collection: acct, filter: {k: {$var: k}}, update: {$inc: {n: 1}}}
`)
	const txns = 20
	out := filepath.Join(t.TempDir(), "r.json")
	code, stdout, stderr := runCLI(t, context.Background(), nil, "run", w, "--uri", proxy.proxied(t, uri), "--concurrency", "1",
		"--operations", "20", "--duration", "0", "--warmup", "0s", "--quiet", "--drop", "--out", out)
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	res, err := results.ReadJSON(out)
	if err != nil {
		t.Fatal(err)
	}
	pay := opNamed(res, "pay")
	if pay == nil || pay.Count != txns {
		t.Fatalf("pay: %+v, want %d transactions", pay, txns)
	}
	sent := proxy.seen.Load()
	t.Logf("%d commitTransaction commands for %d transactions; outcomes %v", sent, txns, pay.Outcomes)
	if want := sent - txns; want < cut-1 || pay.Outcomes[mongodb.RetryUnknownCommit] != want {
		t.Fatalf("%d commitTransaction commands for %d transactions: want %d commit retries counted, outcomes %v",
			sent, txns, want, pay.Outcomes)
	}
}
