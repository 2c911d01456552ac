package recording

import (
	"testing"

	"github.com/mongoload/mongoload/internal/testserver"
)

// TestMain stops the test server this package's tests started, if any.
func TestMain(m *testing.M) { testserver.Main(m) }
