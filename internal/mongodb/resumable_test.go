package mongodb

import (
	"errors"
	"fmt"
	"testing"

	"go.mongodb.org/mongo-driver/v2/mongo"
)

// cannotResume: only the server's own refusal (a code, not resumable by
// label or by the specification's list) and an event without a resume
// token end a stream; the driver's own failures, wrapped in command
// errors without a code (a cleared pool: TestWatcherLagShowsPause met
// one), are waited out like a server that is away.
func TestCannotResume(t *testing.T) {
	tests := []struct {
		name  string
		err   error
		final bool
	}{
		{"no post-image for fullDocument: required", mongo.CommandError{Code: 47, Name: "NoMatchingDocument"}, true},
		{"the pipeline removed _id, said by the server", mongo.CommandError{Code: 280, Name: "ChangeStreamFatalError"}, true},
		{"the pipeline removed _id, found by the driver", fmt.Errorf("next: %w", mongo.ErrMissingResumeToken), true},
		{"history gone from the oplog", mongo.CommandError{Code: 286, Name: "ChangeStreamHistoryLost"}, true},
		{"labelled resumable", mongo.CommandError{Code: 280, Labels: []string{"ResumableChangeStreamError"}}, false},
		{"shutting down, unlabelled", mongo.CommandError{Code: 11600, Name: "InterruptedAtShutdown"}, false},
		{"not primary, unlabelled", mongo.CommandError{Code: 10107, Name: "NotWritablePrimary"}, false},
		{"the driver's cleared pool", mongo.CommandError{Message: "connection pool was cleared"}, false},
		{"a network error", mongo.CommandError{Code: 6, Labels: []string{"NetworkError"}}, false},
		{"anything else of the client's", errors.New("server selection timeout"), false},
	}
	for _, tt := range tests {
		if got := cannotResume(tt.err); got != tt.final {
			t.Errorf("%s: cannotResume %v, want %v", tt.name, got, tt.final)
		}
	}
}
