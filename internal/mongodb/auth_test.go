package mongodb

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/mongoload/mongoload/internal/config"
	"github.com/mongoload/mongoload/internal/testserver"
)

// authServer starts a test server of its own that requires SCRAM
// authentication (TESTSERVER_ARGS=--auth) and returns its URI.
func authServer(t *testing.T) string {
	t.Helper()
	testserver.URI(t) // honours MONGOLOAD_SKIP_INTEGRATION
	script, err := testserver.Script()
	if err != nil {
		t.Fatal(err)
	}
	name := fmt.Sprintf("auth-%d", os.Getpid())
	cmd := exec.Command(script, "start", name)
	cmd.Env = append(os.Environ(), "TESTSERVER_ARGS=--auth")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s start %s: %v", script, name, err)
	}
	t.Cleanup(func() { _ = exec.Command(script, "stop", name).Run() })
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	return lines[len(lines)-1]
}

// TestConnectWithoutCredentials: against a server that requires
// authentication, connecting without credentials is an authentication
// failure at once (ErrAuth, naming MONGOLOAD_USERNAME/MONGOLOAD_PASSWORD),
// not a raw Unauthorized at setup; wrong credentials are ErrAuth too, and
// right ones connect.
func TestConnectWithoutCredentials(t *testing.T) {
	uri := authServer(t)
	ctx := context.Background()
	timeouts := config.Timeouts{ServerSelection: config.Duration(5 * time.Second)}
	_, err := Connect(ctx, config.Connection{URI: uri, Timeouts: timeouts})
	if !errors.Is(err, ErrAuth) || !strings.Contains(err.Error(), "MONGOLOAD_USERNAME and MONGOLOAD_PASSWORD") {
		t.Fatalf("no credentials: %v", err)
	}
	// The first user, through the localhost exception (as with mongod).
	raw, err := mongo.Connect(options.Client().ApplyURI(uri))
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Disconnect(ctx)
	if err := raw.Database("admin").RunCommand(ctx, bson.D{{Key: "createUser", Value: "bench"}, {Key: "pwd", Value: "s3cret"},
		{Key: "roles", Value: bson.A{bson.D{{Key: "role", Value: "root"}, {Key: "db", Value: "admin"}}}}}).Err(); err != nil {
		t.Fatal(err)
	}
	_, err = Connect(ctx, config.Connection{URI: uri, Username: "bench", Password: "wrong", Timeouts: timeouts})
	if !errors.Is(err, ErrAuth) {
		t.Fatalf("a wrong password: %v", err)
	}
	cl, err := Connect(ctx, config.Connection{URI: uri, Username: "bench", Password: "s3cret", Timeouts: timeouts})
	if err != nil {
		t.Fatalf("the right password: %v", err)
	}
	cl.Close()
}
