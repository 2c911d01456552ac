package mongodb

import (
	"slices"
	"strconv"
	"strings"

	"go.mongodb.org/mongo-driver/v2/mongo/options"
	"go.mongodb.org/mongo-driver/v2/mongo/readconcern"
	"go.mongodb.org/mongo-driver/v2/mongo/readpref"
	"go.mongodb.org/mongo-driver/v2/mongo/writeconcern"

	"github.com/mongoload/mongoload/internal/config"
)

// clientOptions turns the run's connection settings into the driver's.
func clientOptions(conn config.Connection) (*options.ClientOptions, error) {
	uri, err := withExtraOptions(conn.URI, conn.Options)
	if err != nil {
		return nil, err
	}
	if err := CheckURI(uri); err != nil {
		return nil, err
	}
	o := options.Client().ApplyURI(uri)
	if conn.AppName != "" {
		o.SetAppName(conn.AppName)
	}
	if conn.Username != "" || conn.Password != "" {
		cred := options.Credential{Username: conn.Username, Password: conn.Password, AuthSource: conn.AuthSource}
		if o.Auth != nil {
			cred.AuthMechanism = o.Auth.AuthMechanism
			if cred.Username == "" {
				cred.Username = o.Auth.Username
			}
		}
		o.SetAuth(cred)
	}
	if conn.ReadPreference != "" {
		rp, err := ReadPref(conn.ReadPreference)
		if err != nil {
			return nil, err
		}
		o.SetReadPreference(rp)
	}
	if conn.ReadConcern != "" {
		o.SetReadConcern(&readconcern.ReadConcern{Level: conn.ReadConcern})
	}
	if wc := WriteConcern(conn.WriteConcern); wc != nil {
		o.SetWriteConcern(wc)
	}
	if conn.MaxPoolSize > 0 {
		o.SetMaxPoolSize(conn.MaxPoolSize)
	}
	if conn.MinPoolSize > 0 {
		o.SetMinPoolSize(conn.MinPoolSize)
	}
	if len(conn.Compressors) > 0 {
		o.SetCompressors(conn.Compressors)
	}
	if d := conn.Timeouts.Connect.D(); d > 0 {
		o.SetConnectTimeout(d)
	}
	if d := conn.Timeouts.ServerSelection.D(); d > 0 {
		o.SetServerSelectionTimeout(d)
	}
	if d := conn.Timeouts.Operation.D(); d > 0 {
		o.SetTimeout(d)
	}
	return o, nil
}

// withExtraOptions appends the workload's extra URI options (retryWrites,
// directConnection, tls, ...) to the connection string.
func withExtraOptions(uri string, extra map[string]string) (string, error) {
	if len(extra) == 0 {
		return uri, nil
	}
	keys := make([]string, 0, len(extra))
	for k := range extra {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	var b strings.Builder
	b.WriteString(uri)
	sep := "?"
	if strings.Contains(uri, "?") {
		sep = "&"
	} else if i := strings.Index(uri, "://"); i >= 0 && !strings.Contains(uri[i+3:], "/") {
		sep = "/?"
	}
	for _, k := range keys {
		b.WriteString(sep + k + "=" + extra[k])
		sep = "&"
	}
	return b.String(), nil
}

// ReadPref converts a read preference mode name.
func ReadPref(name string) (*readpref.ReadPref, error) {
	mode, err := readpref.ModeFromString(name)
	if err != nil {
		return nil, &config.Error{Kind: config.Invalid, Field: "readPreference", Msg: err.Error()}
	}
	return readpref.New(mode)
}

// WriteConcern converts the configured write concern; nil keeps the default.
func WriteConcern(wc *config.WriteConcern) *writeconcern.WriteConcern {
	if wc == nil || (wc.W == "" && wc.J == nil) {
		return nil
	}
	out := &writeconcern.WriteConcern{Journal: wc.J}
	if wc.W != "" {
		if n, err := strconv.Atoi(wc.W); err == nil {
			out.W = n
		} else {
			out.W = wc.W
		}
	}
	return out
}
