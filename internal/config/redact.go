package config

import "strings"

// Redacted is the mark that stands where a secret was.
const Redacted = "xxxxx"

// RedactURI hides the password of a mongodb:// URI (user:password@host).
func RedactURI(uri string) string {
	scheme, rest, ok := strings.Cut(uri, "://")
	if !ok {
		return uri
	}
	authority := rest
	if i := strings.IndexAny(rest, "/?"); i >= 0 {
		authority = rest[:i]
	}
	at := strings.LastIndex(authority, "@")
	if at < 0 {
		return uri
	}
	user, _, hasPass := strings.Cut(authority[:at], ":")
	if !hasPass {
		return uri
	}
	return scheme + "://" + user + ":" + Redacted + rest[at:]
}

// Redact returns a copy of c that is safe to print or write: no password.
func (c *Config) Redact() *Config {
	out := *c
	out.Connection.URI = RedactURI(c.Connection.URI)
	out.Run.History = RedactURI(c.Run.History)
	if out.Connection.Password != "" {
		out.Connection.Password = Redacted
	}
	if len(c.Connection.Options) > 0 {
		out.Connection.Options = make(map[string]string, len(c.Connection.Options))
		for k, v := range c.Connection.Options {
			if strings.Contains(strings.ToLower(k), "password") || strings.Contains(strings.ToLower(k), "secret") {
				v = Redacted
			}
			out.Connection.Options[k] = v
		}
	}
	return &out
}

// RedactArgs returns args with the password of every connection string
// (--uri, -p mongodb.url=...) and the value of --password hidden.
func RedactArgs(args []string) []string {
	out := make([]string, len(args))
	for i, a := range args {
		switch {
		case i > 0 && args[i-1] == "--password":
			a = Redacted
		case strings.HasPrefix(a, "--password="):
			a = "--password=" + Redacted
		default:
			if at := strings.Index(a, "mongodb"); at >= 0 && strings.Contains(a[at:], "://") {
				a = a[:at] + RedactURI(a[at:])
			}
		}
		out[i] = a
	}
	return out
}
