package capture

import (
	"math"
	"strings"
	"unicode"
	"unicode/utf8"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/mongoload/mongoload/internal/mongodb"
)

// What looks like a person's data, an account or a secret, whatever its
// cardinality (privacy.go's rule 2): by its value, anywhere in a string
// (a name and a card number in one $addFields constant, a token after a
// name in a memo), or by the name of the field that holds it (a CVV, a
// PIN: constants that identify nothing by their look).

// valueIdentifies: a string that identifies (stringIdentifies), a whole
// number of 9 digits or more, a calendar date (at midnight: a birth
// date, whose day would name a person), binary data.
func valueIdentifies(v bson.RawValue) bool {
	switch v.Type {
	case bson.TypeString:
		return stringIdentifies(v.StringValue())
	case bson.TypeInt32, bson.TypeInt64, bson.TypeDouble:
		// 9 digits and more: SSNs, cards, phones, accounts; not a round
		// number (a week in milliseconds, 604800000, is a width).
		return numberIdentifies(mongodb.Number(v))
	case bson.TypeDateTime:
		return v.DateTime()%86400000 == 0
	case bson.TypeBinary:
		return true
	}
	return false
}

// stringIdentifies: a string that is, or holds among its words, an email,
// a card, phone or social security number (9 digits or more, with spaces
// or dashes), a secret (a crypt hash, a long random token, a key of a
// known form, an upper-case code such as a coupon), or a person's name
// (two capitalised words, alone or in a sentence). A string that cannot be
// read as text identifies too: its look cannot be judged (unreadable).
func stringIdentifies(s string) bool {
	if unreadable(s) || identifiesAlone(s) || personName(s) || longDigitRun(s) {
		return true
	}
	words := strings.FieldsFunc(s, func(r rune) bool { return unicode.IsSpace(r) || strings.ContainsRune(`,;()[]{}"'<>|`, r) })
	for i, w := range words {
		w = strings.TrimRight(w, ".:!?")
		if len(words) > 1 && identifiesAlone(w) {
			return true
		}
		if i > 0 && nameWord(strings.TrimRight(words[i-1], ".:!?")) && nameWord(w) && !strings.ContainsAny(words[i-1], ".:!?") {
			return true // "Zelda Quixote owes ...", "742 Evergreen Terrace"
		}
	}
	return false
}

// unreadable: bytes that are not UTF-8 (a Latin-1 é in a log), U+FFFD
// (what a log writer puts for such a byte), or a character that is not
// printed (a control or format character: a zero-width space, a BOM; a
// private or unassigned code point). The rules above read letters, and
// "Zelda Quixote\xe9" is a name they cannot see: such a string is judged
// data whatever it looks like, so no byte hides a value (promises6).
func unreadable(s string) bool {
	if !utf8.ValidString(s) {
		return true
	}
	for _, r := range s {
		if r == utf8.RuneError || !unicode.IsGraphic(r) && !unicode.IsSpace(r) {
			return true
		}
	}
	return false
}

// identifiesAlone: one value, or one word, that is an email, a secret or
// a code.
func identifiesAlone(s string) bool {
	if at := strings.IndexByte(s, '@'); at > 0 && strings.Contains(s[at:], ".") {
		return true
	}
	digits, letters, upper, lower := 0, 0, 0, 0
	for _, c := range s {
		switch {
		case c >= '0' && c <= '9':
			digits++
		case unicode.IsUpper(c):
			upper++
			letters++
		case unicode.IsLetter(c):
			lower++
			letters++
		}
	}
	switch {
	case digits >= 9 && letters == 0: // cards, SSNs, phones, account numbers
		return true
	case strings.HasPrefix(s, "$") && strings.Count(s, "$") >= 3: // $2b$12$..., $6$salt$hash
		return true
	case len(s) >= 20 && !strings.ContainsAny(s, " ") && digits > 0 && letters > 0 && upper+lower > 0 && (upper > 0 && lower > 0 || digits >= 4):
		return true // a token, a key, a hash
	case secretPrefix(s):
		return true
	case len(s) >= 8 && lower == 0 && upper >= 2 && digits >= 3 && strings.Trim(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_/.#") == "":
		return true // an upper-case code: a coupon, a voucher, a licence key (COUPON-ZQ-7781)
	}
	return false
}

// secretPrefixes start the keys of well-known services (Stripe, GitHub,
// GitLab, Slack, AWS, Google, npm, SendGrid) and JSON web tokens: such a
// word is a secret however short the rest.
var secretPrefixes = []string{"sk_live_", "sk_test_", "rk_live_", "rk_test_", "pk_live_", "pk_test_", "whsec_",
	"ghp_", "gho_", "ghs_", "ghu_", "github_pat_", "glpat-", "xoxb-", "xoxp-", "xoxa-", "AKIA", "ASIA", "AIza",
	"npm_", "SG.", "eyJ", "-----BEGIN"}

func secretPrefix(s string) bool {
	for _, p := range secretPrefixes {
		if strings.HasPrefix(s, p) && len(s) >= len(p)+4 {
			return true
		}
	}
	return false
}

// longDigitRun: 9 digits or more in one run of digits, spaces, dashes,
// dots, parentheses and +: a card, phone, account or social security
// number, alone or in a sentence ("call +44 20 7946 0958").
func longDigitRun(s string) bool {
	digits := 0
	for _, c := range s {
		switch {
		case c >= '0' && c <= '9':
			if digits++; digits >= 9 {
				return true
			}
		case strings.ContainsRune(" -.()+", c):
		default:
			digits = 0
		}
	}
	return false
}

// personName: two to four words, each a capital and lower-case letters
// (Guinevere Przybylski, Mary Ann O'Neil).
func personName(s string) bool {
	words := strings.Fields(s)
	if len(words) < 2 || len(words) > 4 {
		return false
	}
	for _, w := range words {
		r := []rune(w)
		if len(r) < 2 || !unicode.IsUpper(r[0]) {
			return false
		}
		for _, c := range r[1:] {
			if !unicode.IsLetter(c) && !unicode.IsMark(c) && c != '\'' && c != '-' && !unicode.IsDigit(c) {
				return false
			}
		}
	}
	return true
}

// nameWord: a capital, then lower-case letters (an apostrophe, a dash or
// a combining accent between them: Zoe\u0308 as a decomposed Zoë): a word
// of a name within a sentence.
func nameWord(w string) bool {
	r := []rune(w)
	if len(r) < 2 || !unicode.IsUpper(r[0]) {
		return false
	}
	lower := false
	for _, c := range r[1:] {
		switch {
		case unicode.IsLower(c):
			lower = true
		case c != '\'' && c != '-' && !unicode.IsMark(c):
			return false
		}
	}
	return lower
}

// numberIdentifies: a whole number of 9 digits or more, not a round one
// (a week in milliseconds, 604800000, is a width, not an account).
func numberIdentifies(x float64) bool {
	x = math.Abs(x)
	return x >= 1e8 && x == math.Trunc(x) && math.Mod(x, 1000) != 0
}

// sensitiveNames are words that, in a field's name, say its values are a
// person's data or a secret whatever they look like (a CVV of three
// digits, a street, a constant PIN): such a field is private, and its
// values are never written without --keep-values.
var sensitiveNames = []string{"password", "passwd", "passphrase", "pwhash", "secret", "token", "apikey", "accesskey",
	"privatekey", "credential", "cardnumber", "creditcard", "birth", "street", "address", "email", "phone", "mobile",
	"firstname", "lastname", "fullname", "surname", "maidenname", "passport", "licence", "license"}

// sensitiveExact are the short names that are sensitive only whole (a
// "pin", not "shipping").
var sensitiveExact = []string{"pin", "cvv", "cvc", "cvv2", "cvc2", "ssn", "iban", "dob", "otp", "salt", "pan", "pwd", "taxid"}

var separators = strings.NewReplacer("_", "", "-", "")

// sensitiveName says whether a field path names a person's data or a
// secret: any of its segments, in any case, with or without _ and -.
func sensitiveName(path string) bool {
	for _, seg := range strings.Split(path, ".") {
		n := strings.ToLower(separators.Replace(seg))
		for _, w := range sensitiveExact {
			if n == w {
				return true
			}
		}
		for _, w := range sensitiveNames {
			if strings.Contains(n, w) {
				return true
			}
		}
	}
	return false
}
