package mongodb

import "github.com/mongoload/mongoload/internal/generate"

func newState() *generate.State { return generate.NewState(1, 1) }
