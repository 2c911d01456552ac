package capture

import "sync"

// What must be undone even when the user will not wait: a second Ctrl-C
// exits at once (ExitAbandoned), but a production setting a command
// changed (capture --enable-profiler's profiler) is put back first.
var urgent struct {
	sync.Mutex
	next int
	fns  map[int]func()
}

// AddUrgent registers fn to run on Abandon; the function it returns
// unregisters it (the command undid its change itself).
func AddUrgent(fn func()) (remove func()) {
	urgent.Lock()
	defer urgent.Unlock()
	if urgent.fns == nil {
		urgent.fns = map[int]func(){}
	}
	id := urgent.next
	urgent.next++
	urgent.fns[id] = fn
	return func() {
		urgent.Lock()
		defer urgent.Unlock()
		delete(urgent.fns, id)
	}
}

// Abandon runs what is registered, for main to call (through cli.Abandon) on a second Ctrl-C
// before it exits. Each function bounds its own time.
func Abandon() {
	urgent.Lock()
	fns := make([]func(), 0, len(urgent.fns))
	for _, fn := range urgent.fns {
		fns = append(fns, fn)
	}
	urgent.Unlock()
	var wg sync.WaitGroup
	for _, fn := range fns {
		wg.Add(1)
		go func() { defer wg.Done(); fn() }()
	}
	wg.Wait()
}
