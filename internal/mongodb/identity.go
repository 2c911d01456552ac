package mongodb

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"

	"go.mongodb.org/mongo-driver/v2/bson"
)

// Deployment identifies a deployment without naming it: one hash per host
// it reports, each of the replica set's name and the host ("rs0/db1:27017").
// A capture records it in the workload file (capturedFrom), so that a run
// of the file can tell it is about to write to the very deployment the
// workload was read from (internal/run.GuardSource). Hashes, not names:
// the file may travel, and the hosts of production need not travel with it.
//
// The hosts are the deployment's own view (hello's hosts and passives, or
// serverStatus's host for a standalone or a mongos), so another URI of the
// same deployment (localhost for 127.0.0.1, one member for another) is
// the same deployment; a member added since the capture still shares the
// others with it.
type Deployment []string

// Deployment asks the server cl is connected to who it is.
func (cl *Client) Deployment(ctx context.Context) (Deployment, error) {
	hello, err := cl.Command(ctx, "admin", bson.D{{Key: "hello", Value: 1}})
	if err != nil {
		return nil, fmt.Errorf("identify the deployment: %w", err)
	}
	set, _ := hello.Lookup("setName").StringValueOK()
	var hosts []string
	for _, field := range []string{"hosts", "passives"} {
		if arr, ok := hello.Lookup(field).ArrayOK(); ok {
			vals, _ := arr.Values()
			for _, v := range vals {
				if h, ok := v.StringValueOK(); ok {
					hosts = append(hosts, h)
				}
			}
		}
	}
	if len(hosts) == 0 { // a standalone or a mongos: its own host
		st, err := cl.Command(ctx, "admin", bson.D{{Key: "serverStatus", Value: 1}})
		if err != nil {
			return nil, fmt.Errorf("identify the deployment: %w", err)
		}
		h, ok := st.Lookup("host").StringValueOK()
		if !ok || h == "" {
			return nil, fmt.Errorf("identify the deployment: the server names no host (hello: no hosts; serverStatus: no host)")
		}
		hosts = append(hosts, h)
	}
	return DeploymentOf(set, hosts), nil
}

// DeploymentOf is the identity of a replica set named set (or "") with
// these hosts: each "set/host" hashed (SHA-256, the first 8 bytes in hex),
// sorted, without repeats.
func DeploymentOf(set string, hosts []string) Deployment {
	var d Deployment
	for _, h := range hosts {
		sum := sha256.Sum256([]byte("mongoload deployment\x00" + set + "/" + h))
		d = append(d, hex.EncodeToString(sum[:8]))
	}
	slices.Sort(d)
	return slices.Compact(d)
}

// Same reports whether d and other are one deployment: they share a host
// (of the same replica set name).
func (d Deployment) Same(other []string) bool {
	for _, h := range other {
		if slices.Contains(d, h) {
			return true
		}
	}
	return false
}
