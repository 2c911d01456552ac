package results

import "strings"

// The HDR interval log (--hlog) that a run writes and merge reads back
// names each operation's histograms by these tags.

// ServiceTagSuffix marks the service-time histograms of an interval log: an
// open-loop run's operation NAME has its response times under tag NAME and
// its service times under NAME.service.
const ServiceTagSuffix = ".service"

// HlogTag is the interval-log tag of the operation named name. The format
// forbids commas, spaces and line breaks in tags; they become underscores.
func HlogTag(name string) string {
	return strings.Map(func(r rune) rune {
		switch r {
		case ',', ' ', '\t', '\r', '\n':
			return '_'
		}
		return r
	}, name)
}
