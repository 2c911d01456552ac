package capture

import (
	"bytes"
	"fmt"
	"io"
	"strings"

	"github.com/mongoload/mongoload/internal/config"
	"github.com/mongoload/mongoload/internal/workload"
)

// WriteYAML writes the workload file: the header, each collection and
// operation with comments saying where it came from, and the run
// settings. It is read back and compiled before it is written, so a file
// capture writes always runs.
func (w *Workload) WriteYAML(out io.Writer) error {
	var buf bytes.Buffer
	if err := w.encode(&buf); err != nil {
		return err
	}
	if err := workload.CheckYAML(buf.Bytes(), "captured workload"); err != nil {
		return fmt.Errorf("the captured workload does not validate (a bug: please report it): %w", err)
	}
	_, err := out.Write(buf.Bytes())
	return err
}

// encode writes the workload through config's one writer, each
// collection and operation under its notes, the rate under how it was
// measured.
func (w *Workload) encode(out io.Writer) error {
	runNotes := map[string]string{
		"rate":   "the captured rate: the run is open loop at it (--rate-scale 2 for twice; --rate N for another)",
		"stages": "the captured rate over time, step by step (open loop): it replaces rate; --rate-scale multiplies it, --stages replaces it",
	}
	if len(w.Config.Run.Stages) > 0 {
		runNotes["rate"] = "the captured mean rate: the run is open loop, following the stages below (--rate-scale 2 for twice)"
	}
	return config.Encode(out, w.Config, config.Encoding{Header: strings.Join(w.Header, "\n"), ColNotes: w.ColNotes, OpNotes: w.OpNotes,
		RunNotes: runNotes, Always: []string{"duration"}})
}
