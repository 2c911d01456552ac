package dbcommand

import "strings"

// Policy is what a run sends beyond data reads and writes, each kind
// asked for in words on the command line.
type Policy struct {
	// DDL sends the collection and index commands (--replay-ddl); each
	// still passes the ownership rule on the collections it alters.
	DDL bool
	// Admin sends server administration and the commands this package
	// does not know (--replay-admin), as they are.
	Admin bool
}

// WhyDriver is why a driver's own command is not sent.
const WhyDriver = "commands that are not an operation of the application (a driver's own: cursors, sessions, handshakes, authentication, a transaction's end)"

// Skip says why c is not sent under p, in words that name the command
// (the key its count is kept under), or "" when it is sent; a sent
// command's writes and alterations then pass the ownership rule at setup
// (internal/mongodb), before anything is written.
func (p Policy) Skip(c Class) string {
	switch c.Kind {
	case Driver:
		return WhyDriver
	case Write:
		for _, t := range c.Writes {
			if why := Reserved(t.NS); why != "" {
				return c.Name + " writing into " + why + ": never sent (mongoload writes only into collections it created, and creates none there)"
			}
		}
	case DDL:
		switch {
		case c.Database != "":
			return c.Name + ": never sent (a database holds collections mongoload did not create, and its record of those it did)"
		case !p.DDL:
			return c.Name + ": DDL (it creates, drops, renames, re-indexes or alters a collection): sent only with --replay-ddl"
		}
		for _, ns := range c.Alters {
			if why := Reserved(ns); why != "" {
				return c.Name + " on " + why + ": never sent"
			}
		}
	case Admin:
		if c.Opaque {
			return c.Name + ": never sent (it writes, drops or copies data under another name, which the ownership rule cannot check)"
		}
		if !p.Admin {
			return c.Name + ": no data operation (server administration, or a command mongoload does not know): sent only with --replay-admin"
		}
	}
	return ""
}

// MetaCollection is where mongoload marks, in each database it uses, the
// collections it created (internal/mongodb keeps it).
const MetaCollection = "mongoload_meta"

// serverDatabases are the server's own: mongoload creates nothing there.
var serverDatabases = map[string]bool{"admin": true, "local": true, "config": true}

// Reserved says why ns is no collection mongoload may create, write into
// or alter whatever the flags: a database of the server's own (admin,
// local, config), a system collection, a command's pseudo-collection
// ($cmd), mongoload's own record, or a name that did not read; "" for any
// other.
func Reserved(ns string) string {
	db, coll, _ := strings.Cut(ns, ".")
	switch {
	case db == "" || db == "?" || coll == "" || coll == "?":
		return "a namespace the command does not name readably (" + ns + ")"
	case serverDatabases[db]:
		return "the server's own database " + db + " (" + ns + ")"
	case strings.HasPrefix(coll, "system."):
		return "a system collection (" + ns + ")"
	case strings.Contains(coll, "$"):
		return "a command's pseudo-collection (" + ns + ")"
	case coll == MetaCollection:
		return "mongoload's record of the collections it created (" + ns + ")"
	}
	return ""
}
