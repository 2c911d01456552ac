package generate

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/brianvoe/gofakeit/v7"
)

// fakers are the realistic-value generators without parameters, each
// backed by a gofakeit function and served from a pool (see pool).
var fakers = map[string]func(f *gofakeit.Faker) string{
	"name":      (*gofakeit.Faker).Name,
	"firstName": (*gofakeit.Faker).FirstName,
	"lastName":  (*gofakeit.Faker).LastName,
	"city":      (*gofakeit.Faker).City,
	"country":   (*gofakeit.Faker).Country,
	"street":    (*gofakeit.Faker).Street,
	"email":     (*gofakeit.Faker).Email,
	"phone":     (*gofakeit.Faker).Phone,
	"company":   (*gofakeit.Faker).Company,
	"username":  (*gofakeit.Faker).Username,
	"word":      (*gofakeit.Faker).Word,
	"paragraph": func(f *gofakeit.Faker) string { return f.Paragraph() },
	"url":       (*gofakeit.Faker).URL,
	"ipv4":      (*gofakeit.Faker).IPv4Address,
	"jobTitle":  (*gofakeit.Faker).JobTitle,
}

// poolBuilder makes the builder of a parameterless realistic generator.
func poolBuilder(name string, text func(f *gofakeit.Faker) string) func(p *params) (Generator, error) {
	return func(p *params) (Generator, error) {
		return p.stringPool(name, text)
	}
}

// maxWords bounds words and sentence, whose pools hold PoolSize values.
const maxWords = 1000

// buildWords: words {min, max}, that many words joined by spaces; defaults
// 1 and 5.
func buildWords(p *params) (Generator, error) {
	mn, mx := p.intRange(1, 5, 1, maxWords)
	if p.err != nil {
		return p.done(nil)
	}
	label := "words:" + strconv.FormatInt(mn, 10) + ":" + strconv.FormatInt(mx, 10)
	return p.stringPool(label, func(f *gofakeit.Faker) string {
		return joinWords(f, f.IntRange(int(mn), int(mx)))
	})
}

// buildSentence: sentence {words}, a capitalized sentence of exactly that
// many words ending in a period; default 8. (gofakeit's own Sentence
// ignores its word count.)
func buildSentence(p *params) (Generator, error) {
	n := int(p.intIn("words", 8, 1, maxWords))
	if p.err != nil {
		return p.done(nil)
	}
	return p.stringPool("sentence:"+strconv.Itoa(n), func(f *gofakeit.Faker) string {
		s := joinWords(f, n)
		if s == "" {
			return s
		}
		r, size := utf8.DecodeRuneInString(s)
		return string(unicode.ToUpper(r)) + s[size:] + "."
	})
}

// joinWords is n random words joined by spaces.
func joinWords(f *gofakeit.Faker, n int) string {
	var b strings.Builder
	for i := range n {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(f.Word())
	}
	return b.String()
}
