package record

import "strings"

// Localised tag names. Real files name their tags in their language:
// Italian ones write [Bianco "…"] [Nero "…"] [Risultato "…"] [Anno "…"],
// French, Dutch, Russian and Portuguese (and Spanish and German) ones the
// same in theirs. After a game's tags the Reader adds the standard tag each
// stands for (White, Black, Result, Date, Event, Site, Round) when the game
// has none or an empty one ("", "?", "????.??.??"), and keeps the original:
// players, results and dates are then searchable, and the canonical form
// writes both (read again, it adds nothing). A date tag whose value has
// words is not a Date. A year alone (Anno, Année, Jaar, Год, Ano) is the
// Date when no date is given; the index normalises it ("1998" is
// "1998.??.??"). Names are matched as written, in lower case or in upper
// case, and without accents where files drop them (Resultat, Evenement).

// localTags maps a localised tag name to the standard tag it stands for;
// yearTag marks the names of a year alone.
var localTags = func() map[string]string {
	m := map[string]string{}
	add := func(std string, names ...string) {
		for _, n := range names {
			for _, v := range []string{n, strings.ToLower(n), strings.ToUpper(n)} {
				m[v] = std
			}
		}
	}
	add("White", "Bianco", "Blanc", "Blancs", "Wit", "Белые", "Brancas", "Branco", "Blancas", "Weiss", "Weiß")
	add("Black", "Nero", "Noir", "Noirs", "Zwart", "Черные", "Чёрные", "Pretas", "Preto", "Negras", "Schwarz")
	add("Result", "Risultato", "Résultat", "Resultat", "Uitslag", "Resultaat", "Результат", "Resultado", "Ergebnis")
	add("Date", "Data", "Datum", "Дата", "Fecha")
	add(infoTag, "Dati")
	add(yearTag, "Anno", "Année", "Annee", "Jaar", "Год", "Ano", "Año", "Jahr")
	add("Event", "Evento", "Torneo", "Événement", "Evenement", "Évènement", "Tournoi", "Toernooi", "Турнир", "Событие", "Соревнование", "Torneio", "Turnier")
	add("Site", "Luogo", "Sede", "Lieu", "Plaats", "Место", "Local", "Lugar", "Ort")
	add("Round", "Turno", "Ronde", "Tour", "Тур", "Раунд", "Rodada", "Ronda", "Runde")
	return m
}()

// yearTag stands for the names of a year alone, which give the Date;
// infoTag for the Italian Dati ("data"), a date in some files and the
// event and round in others ([Dati "69° ASSOLUTO 1° TURNO"], the Italian
// championship's files): the Date when its value is a date, else the Event.
const (
	yearTag = "year"
	infoTag = "info"
)

// addStandardTags adds the standard tags that g's localised tags stand
// for (see above).
func (g *Game) addStandardTags() {
	var local []Tag // the localised tags, in the order read
	for _, t := range g.Tags {
		if tagRank(t.Name) >= 0 || t.Name[0] < 'A' {
			continue
		}
		if std, ok := localTags[t.Name]; ok && strings.TrimSpace(t.Value) != "" {
			local = append(local, Tag{std, t.Value})
		}
	}
	for i := 0; i < 2*len(local); i++ {
		// Full dates first, then years alone.
		t := local[i%len(local)]
		if (t.Name == yearTag) != (i >= len(local)) {
			continue
		}
		name, v := t.Name, strings.TrimSpace(t.Value)
		switch {
		case name == yearTag:
			name = "Date"
		case name == infoTag && dateLike(v):
			name = "Date"
		case name == infoTag:
			name = "Event"
		case name == "Date" && !dateLike(v):
			continue
		}
		if cur := strings.TrimSpace(g.Tag(name)); cur != "" && cur != "?" && !strings.HasPrefix(cur, "????") {
			continue
		}
		if name == "Result" {
			if r, ok := resultToken([]byte(v)); ok {
				v = r
			}
		}
		g.SetTag(name, v)
	}
}

// dateLike reports a value made of one to three fields of digits (or '?')
// between '.', '-', '/' or blanks, one of them with a digit: a date as
// files write it ("03.07.20", "1998", "13-01-1996"), which the index
// normalises; words are not dates.
func dateLike(v string) bool {
	fields := strings.FieldsFunc(v, func(r rune) bool { return r == '.' || r == '-' || r == '/' || r == ' ' })
	if len(fields) == 0 || len(fields) > 3 {
		return false
	}
	digit := false
	for _, f := range fields {
		for i := 0; i < len(f); i++ {
			switch c := f[i]; {
			case c >= '0' && c <= '9':
				digit = true
			case c != '?':
				return false
			}
		}
	}
	return digit
}
