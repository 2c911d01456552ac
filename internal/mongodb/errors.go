package mongodb

import (
	"context"
	"errors"
	"net"
	"strconv"
	"strings"

	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/x/mongo/driver/topology"
)

// Error classes that are not a server error code.
const (
	ClassTimeout   = "timeout"
	ClassNetwork   = "network"
	ClassSelection = "server-selection"
	ClassCanceled  = "canceled"
	// ClassPoolCleared: the driver dropped its connections to the server
	// because another operation failed on the network, and failed this
	// one without sending it.
	ClassPoolCleared = "pool-cleared"
	ClassOther       = "other"
)

// Classify names an operation error for counting: the server's code name and
// number such as "DuplicateKey(11000)", or one of the Class constants.
// Errors are rare, so the small string building here is off the hot path.
func Classify(err error) string {
	switch {
	case err == nil:
		return ""
	case errors.Is(err, context.Canceled):
		return ClassCanceled
	case mongo.IsTimeout(err), errors.Is(err, context.DeadlineExceeded):
		return ClassTimeout
	case mongo.IsNetworkError(err):
		return ClassNetwork
	}
	var sse topology.ServerSelectionError
	if errors.As(err, &sse) {
		return ClassSelection
	}
	if msg := err.Error(); strings.Contains(msg, "connection pool for ") && strings.Contains(msg, " was cleared") {
		return ClassPoolCleared // the driver's poolClearedError is not exported
	}
	if name, code, ok := serverCode(err); ok {
		if name == "" {
			name = "Error"
		}
		return name + "(" + strconv.Itoa(code) + ")"
	}
	var ne net.Error
	if errors.As(err, &ne) {
		return ClassNetwork
	}
	return ClassOther
}

func serverCode(err error) (string, int, bool) {
	var we mongo.WriteException
	if errors.As(err, &we) {
		if len(we.WriteErrors) > 0 {
			return codeName(we.WriteErrors[0].Code), we.WriteErrors[0].Code, true
		}
		if we.WriteConcernError != nil {
			return "WriteConcern" + we.WriteConcernError.Name, we.WriteConcernError.Code, true
		}
	}
	var bwe mongo.BulkWriteException
	if errors.As(err, &bwe) && len(bwe.WriteErrors) > 0 {
		return codeName(bwe.WriteErrors[0].Code), bwe.WriteErrors[0].Code, true
	}
	var cbe mongo.ClientBulkWriteException
	if errors.As(err, &cbe) {
		if cbe.WriteError != nil {
			return codeName(cbe.WriteError.Code), cbe.WriteError.Code, true
		}
		for _, we := range cbe.WriteErrors { // ordered: at most one
			return codeName(we.Code), we.Code, true
		}
		if len(cbe.WriteConcernErrors) > 0 {
			return "WriteConcern" + cbe.WriteConcernErrors[0].Name, cbe.WriteConcernErrors[0].Code, true
		}
	}
	var ce mongo.CommandError
	if errors.As(err, &ce) {
		return ce.Name, int(ce.Code), true
	}
	return "", 0, false
}

// codeName names the write error codes a workload commonly meets; write
// errors carry a code but not always its name.
func codeName(code int) string {
	switch code {
	case 11000:
		return "DuplicateKey"
	case 112:
		return "WriteConflict"
	case 121:
		return "DocumentValidationFailure"
	case 50:
		return "MaxTimeMSExpired"
	}
	return "WriteError"
}

// IsConnectionLoss reports whether err means the server could not be reached
// at all, as opposed to refusing one operation.
func IsConnectionLoss(err error) bool {
	switch Classify(err) {
	case ClassNetwork, ClassSelection, ClassPoolCleared:
		return true
	}
	return false
}

// unavailableCodes are the server error codes that mean the server (or its
// primary) could not serve the operation at that moment, as opposed to
// refusing the operation itself: a stepdown, a shutdown, an overload.
var unavailableCodes = map[int]bool{
	6: true, 7: true, 89: true, 9001: true, // HostUnreachable, HostNotFound, NetworkTimeout, SocketException
	91: true, 11600: true, 11602: true, 189: true, // ShutdownInProgress, InterruptedAtShutdown, InterruptedDueToReplStateChange, PrimarySteppedDown
	10107: true, 13435: true, 13436: true, 10058: true, // NotWritablePrimary, NotPrimaryNoSecondaryOk, NotPrimaryOrSecondary, LegacyNotPrimary
	262: true, 50: true, 462: true, // ExceededTimeLimit, MaxTimeMSExpired, IngressRequestRateLimitExceeded
}

// IsUnavailable reports whether err means the server was unavailable (it
// could not be reached, timed out, was not primary, was shutting down or
// overloaded), not that it refused this operation (a duplicate key, a
// validation failure, a write conflict). Such errors open an availability
// gap in the report.
func IsUnavailable(err error) bool {
	switch Classify(err) {
	case ClassNetwork, ClassSelection, ClassTimeout, ClassPoolCleared:
		return true
	case "", ClassCanceled:
		return false
	}
	var le interface{ HasErrorLabel(string) bool }
	if errors.As(err, &le) && (le.HasErrorLabel("SystemOverloadedError") || le.HasErrorLabel("RetryableWriteError")) {
		return true
	}
	_, code, ok := serverCode(err)
	return ok && unavailableCodes[code]
}
