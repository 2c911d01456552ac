package mongodb

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/mongoload/mongoload/internal/config"
	"github.com/mongoload/mongoload/internal/testserver"
)

// TestConnectWithoutCredentials: against a server that requires
// authentication, connecting without credentials is an authentication
// failure at once (ErrAuth, naming MONGOLOAD_USERNAME/MONGOLOAD_PASSWORD),
// not a raw Unauthorized at setup; wrong credentials are ErrAuth too, and
// right ones connect.
func TestConnectWithoutCredentials(t *testing.T) {
	uri := testserver.OwnServer(t, "--auth").URI
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
