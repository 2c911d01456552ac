package results

import (
	"fmt"
	"os"
	"path/filepath"
)

// Output is one file a command writes, named as its flag is.
type Output struct {
	What string // "workload file (--out)"
	Path string // "" when not asked for
}

// CheckDistinct refuses two outputs of one command that are the same
// file: the one written last would destroy the other, while the command
// still said both were written. The same path (once cleaned and made
// absolute) or the same existing file under two names (a link) is one
// file.
func CheckDistinct(outs ...Output) error {
	for i, a := range outs {
		for _, b := range outs[i+1:] {
			if a.Path != "" && b.Path != "" && sameFile(a.Path, b.Path) {
				return fmt.Errorf("the %s and the %s are the same file %q: the one written last would destroy the other; give each its own file", a.What, b.What, a.Path)
			}
		}
	}
	return nil
}

func sameFile(a, b string) bool {
	aa, err1 := filepath.Abs(a)
	bb, err2 := filepath.Abs(b)
	if err1 == nil && err2 == nil && aa == bb {
		return true
	}
	ai, err1 := os.Stat(a)
	bi, err2 := os.Stat(b)
	return err1 == nil && err2 == nil && os.SameFile(ai, bi)
}
