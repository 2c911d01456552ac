package workload

import "github.com/mongoload/mongoload/internal/config"

// CheckYAML reads a workload file a tool wrote (capture, import plgm)
// back the way run reads it, validates and compiles it: what is written
// must run. name says what the file is in errors.
func CheckYAML(b []byte, name string) error {
	back, err := config.Parse(b, name)
	if err != nil {
		return err
	}
	if es := back.Validate(); len(es) > 0 {
		return es
	}
	_, err = Compile(back)
	return err
}
