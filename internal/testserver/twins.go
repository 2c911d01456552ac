package testserver

import "testing"

// Fresh starts a server for t alone, new and empty, for a test that
// measures a capacity (findmax's rate, a sweep's throughput): the suite's
// shared server (URI) has served every test before it, with their data,
// indexes and connections, and a test run after the whole race pass would
// measure that history as much as the tool (promises6: findmax's answer
// missed its SLO there, and held on a fresh server). Stopped when t ends.
func Fresh(t testing.TB) *Server {
	t.Helper()
	return OwnServer(t)
}

// Twins starts two servers for t alone, alike: the same binary, arguments
// and cache size, started the same way one after the other, both fresh,
// for a test that compares two servers (ab's A/A and A/B tests). The
// shared server as one side and a fresh one as the other are not alike
// (promises6: an A/A comparison after the race pass found the fresh side
// 1.15-1.24x faster, and the tool was right). Stopped when t ends.
func Twins(t testing.TB) (a, b *Server) {
	t.Helper()
	return OwnServer(t), OwnServer(t)
}
