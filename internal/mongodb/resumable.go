package mongodb

import (
	"errors"

	"go.mongodb.org/mongo-driver/v2/mongo"
)

// codeNoMatchingDocument: a fullDocument: required stream met an event
// whose post-image the server does not have.
const codeNoMatchingDocument = 47

// resumableCodes are the server errors a change stream resumes after
// when the server does not label them ResumableChangeStreamError
// (servers before 4.4, and servers that never label): the change streams
// specification's list (host unreachable or not found, cursor not found,
// stale shard version or epoch or config, network timeout, shutdown,
// read preference unmet, stepdown, retry, time limit, socket, not
// primary, interrupted at shutdown or by a state change).
var resumableCodes = []int{6, 7, 43, 63, 89, 91, 133, 150, 189, 234, 262, 9001, 10107, 11600, 11602, 13388, 13435, 13436}

// cannotResume says whether a change stream's error is one reopening it
// from its resume token would meet again: a server error that is neither
// a network failure nor resumable (an event the server refuses to
// deliver, history no longer in the oplog), or an event without a resume
// token (a pipeline that removed _id). A server that is away, a network
// error or a timeout is resumable: the stream waits for the server.
func cannotResume(err error) bool {
	if errors.Is(err, mongo.ErrMissingResumeToken) {
		return true
	}
	// Only the server's own refusal, with its code, is final: the driver
	// wraps its own failures (a cleared pool, a lost connection) in
	// command errors too, without a code.
	var se mongo.ServerError
	_, code, ok := serverCode(err)
	if !ok || code == 0 || !errors.As(err, &se) || mongo.IsNetworkError(err) || mongo.IsTimeout(err) {
		return false
	}
	if se.HasErrorLabel("ResumableChangeStreamError") {
		return false
	}
	return !hasCode(err, resumableCodes...)
}
