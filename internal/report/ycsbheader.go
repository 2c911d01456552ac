package report

import (
	"fmt"
	"io"
	"strings"
)

// YCSBVersion is the YCSB release whose generators and output mongoload
// follows (and checks itself against: make ycsb-fidelity).
const YCSBVersion = "0.17.0"

// WriteYCSBHeader writes the lines YCSB's Client prints on stderr before
// its measurements, in its order (Client.parseArguments, getWorkload and
// the start of the threads):
//
//	Command line: -P workloads/workloada -p recordcount=1000
//	YCSB Client 0.17.0 (mongoload v1.2.0)
//
//	Loading workload...
//	Starting test.
//
// args are the command's arguments, passwords already redacted. Parsers
// read the command and the client from these lines: PerfKitBenchmarker's
// takes the line starting "Command line:" as the command (else "unknown")
// and one starting "YCSB Client 0." as the client. The client line names
// the YCSB version whose behaviour mongoload reproduces, then mongoload's.
func WriteYCSBHeader(w io.Writer, args []string, version string) error {
	var b strings.Builder
	b.WriteString("Command line:")
	for _, a := range args {
		b.WriteString(" " + a)
	}
	fmt.Fprintf(&b, "\nYCSB Client %s (mongoload %s)\n\nLoading workload...\nStarting test.\n", YCSBVersion, version)
	_, err := io.WriteString(w, b.String())
	return err
}
