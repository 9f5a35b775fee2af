package ogi

// A deliberately naive second move generator: a [8][8]string board ("P",
// "+p", ""), hands as maps of piece names, moves as canonical strings, the
// history as strings; every rule written out again from the French text,
// with no tables shared with the package.

import (
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/plateau/plateau/internal/longtest"
	"github.com/plateau/plateau/rules"
)

type naive struct {
	b    [8][8]string // [file][rank]
	hand [2]map[string]int
	side int
	hist []string // "move|position" already played
	over bool
}

func naiveParse(t testing.TB, s string) *naive {
	t.Helper()
	n := &naive{hand: [2]map[string]int{{}, {}}}
	f := strings.Fields(s)
	rows := strings.Split(f[0], "/")
	for i, row := range rows {
		r := 7 - i
		file := 0
		pre := ""
		for _, ch := range row {
			switch {
			case ch == '+':
				pre = "+"
			case ch >= '1' && ch <= '8':
				file += int(ch - '0')
			default:
				n.b[file][r] = pre + string(ch)
				pre = ""
				file++
			}
		}
	}
	if f[1] == "w" {
		n.side = 1
	}
	if f[2] != "-" {
		cnt := 0
		pre := ""
		for _, ch := range f[2] {
			switch {
			case ch >= '0' && ch <= '9':
				cnt = cnt*10 + int(ch-'0')
			case ch == '+':
				pre = "+"
			default:
				if cnt == 0 {
					cnt = 1
				}
				side := 0
				if strings.ToLower(string(ch)) == string(ch) {
					side = 1
				}
				n.hand[side][pre+strings.ToUpper(string(ch))] += cnt
				cnt, pre = 0, ""
			}
		}
	}
	return n
}

func (n *naive) copy() *naive {
	c := *n
	c.hand = [2]map[string]int{{}, {}}
	for s := 0; s < 2; s++ {
		for k, v := range n.hand[s] {
			c.hand[s][k] = v
		}
	}
	c.hist = append([]string(nil), n.hist...)
	return &c
}

func owner(p string) int {
	l := p[len(p)-1]
	if l >= 'a' && l <= 'z' {
		return 1
	}
	return 0
}

func letter(p string) string { return strings.ToUpper(p[len(p)-1:]) }
func isProm(p string) bool   { return p[0] == '+' }

func sqn(f, r int) string { return string(rune('a'+f)) + strconv.Itoa(r+1) }

func (n *naive) key() string {
	var b strings.Builder
	for r := 0; r < 8; r++ {
		for f := 0; f < 8; f++ {
			b.WriteString(n.b[f][r] + ",")
		}
	}
	for s := 0; s < 2; s++ {
		var ks []string
		for k, v := range n.hand[s] {
			if v > 0 {
				ks = append(ks, k+strconv.Itoa(v))
			}
		}
		sort.Strings(ks)
		b.WriteString("|" + strings.Join(ks, ","))
	}
	b.WriteString("|" + strconv.Itoa(n.side))
	return b.String()
}

// targets lists the squares piece p on (f, r) may move to: step offsets in
// the mover's frame (forward = toward the opponent) and slide directions.
func (n *naive) targets(p string, f, r int) [][2]int {
	fw := 1
	if owner(p) == 1 {
		fw = -1
	}
	var stepsList, slides [][2]int
	gold := [][2]int{{0, 1}, {0, -1}, {1, 0}, {-1, 0}, {1, 1}, {-1, 1}}
	allOrth := [][2]int{{0, 1}, {0, -1}, {1, 0}, {-1, 0}}
	allDiag := [][2]int{{1, 1}, {1, -1}, {-1, 1}, {-1, -1}}
	switch letter(p) {
	case "K":
		stepsList = append(allOrth, allDiag...)
	case "I":
		slides = allDiag
		for _, a := range []int{1, -1} {
			for _, c := range []int{2, -2} {
				stepsList = append(stepsList, [2]int{a, c}, [2]int{c, a})
			}
		}
		if isProm(p) {
			stepsList = append(stepsList, allOrth...)
		}
	case "R":
		slides = allOrth
		if isProm(p) {
			stepsList = allDiag
		}
	case "B":
		slides = allDiag
		if isProm(p) {
			stepsList = allOrth
		}
	case "S":
		if isProm(p) {
			stepsList = gold
		} else {
			stepsList = [][2]int{{0, 1}, {1, 1}, {-1, 1}, {1, -1}, {-1, -1}}
		}
	case "N":
		if isProm(p) {
			stepsList = gold
		} else {
			stepsList = [][2]int{{1, 2}, {-1, 2}}
		}
	case "L":
		if isProm(p) {
			stepsList = gold
		} else {
			slides = [][2]int{{0, 1}}
		}
	case "P":
		if isProm(p) {
			stepsList = gold
		} else {
			stepsList = [][2]int{{0, 1}}
		}
	}
	var out [][2]int
	in := func(x, y int) bool { return x >= 0 && x < 8 && y >= 0 && y < 8 }
	for _, s := range stepsList {
		x, y := f+s[0], r+s[1]*fw
		if in(x, y) {
			out = append(out, [2]int{x, y})
		}
	}
	for _, s := range slides {
		x, y := f+s[0], r+s[1]*fw
		for in(x, y) {
			out = append(out, [2]int{x, y})
			if n.b[x][y] != "" {
				break
			}
			x, y = x+s[0], y+s[1]*fw
		}
	}
	return out
}

func zone(side, r int) bool {
	if side == 0 {
		return r >= 5
	}
	return r <= 2
}

func lastRanks(side, r, k int) bool { // r is within the last k ranks of side
	if side == 0 {
		return r >= 8-k
	}
	return r < k
}

type nmove struct {
	text             string
	p                string
	ff, fr, tf, tr   int
	drop, prom, keep bool
}

func (n *naive) pseudo() []nmove {
	var out []nmove
	if n.over {
		return nil
	}
	for f := 0; f < 8; f++ {
		for r := 0; r < 8; r++ {
			p := n.b[f][r]
			if p == "" || owner(p) != n.side {
				continue
			}
			for _, t := range n.targets(p, f, r) {
				q := n.b[t[0]][t[1]]
				if q != "" && owner(q) == n.side {
					continue
				}
				base := letter(p)
				if isProm(p) {
					base = "+" + base
				}
				sep := "-"
				if q != "" {
					sep = "x"
				}
				text := base + sqn(f, r) + sep + sqn(t[0], t[1])
				mv := nmove{p: p, ff: f, fr: r, tf: t[0], tr: t[1]}
				switch {
				case letter(p) == "K":
					if q != "" && isProm(q) {
						k := mv
						k.keep = true
						k.text = text + "+"
						mv.text = text
						out = append(out, k, mv)
					} else {
						mv.text = text
						out = append(out, mv)
					}
				case !isProm(p) && (zone(n.side, r) || zone(n.side, t[1])):
					mustP := (letter(p) == "P" || letter(p) == "L") && lastRanks(n.side, t[1], 1) ||
						letter(p) == "N" && lastRanks(n.side, t[1], 2)
					pr := mv
					pr.prom = true
					pr.text = text + "+"
					out = append(out, pr)
					if !mustP {
						mv.text = text + "="
						out = append(out, mv)
					}
				default:
					mv.text = text
					out = append(out, mv)
				}
			}
		}
	}
	for name, cnt := range n.hand[n.side] {
		if cnt == 0 || name == "P" || name == "K" {
			continue
		}
		for f := 0; f < 8; f++ {
			for r := 0; r < 8; r++ {
				if n.b[f][r] != "" {
					continue
				}
				if name == "L" && lastRanks(n.side, r, 1) || name == "N" && lastRanks(n.side, r, 2) {
					continue
				}
				p := name
				if n.side == 1 {
					p = strings.ToLower(name)
				}
				out = append(out, nmove{text: name + "*" + sqn(f, r), p: p, tf: f, tr: r, drop: true})
			}
		}
	}
	return out
}

func (n *naive) play(m nmove) {
	if m.drop {
		name := letter(m.p)
		if isProm(m.p) {
			name = "+" + name
		}
		n.hand[n.side][name]--
		n.b[m.tf][m.tr] = m.p
	} else {
		if q := n.b[m.tf][m.tr]; q != "" {
			name := letter(q)
			if m.keep {
				name = "+" + name
			}
			n.hand[n.side][name]++
			if name == "K" {
				n.over = true
			}
		}
		p := m.p
		if m.prom {
			p = "+" + p
		}
		n.b[m.ff][m.fr] = ""
		n.b[m.tf][m.tr] = p
	}
	n.side ^= 1
}

// ident is the move for the repetition rule: piece, from, to, promotion choice.
func ident(text string) string {
	return strings.TrimSuffix(strings.Replace(text, "x", "-", 1), "=")
}

func (n *naive) legal() []nmove {
	var out []nmove
	for _, m := range n.pseudo() {
		c := n.copy()
		c.play(m)
		rec := ident(m.text) + "|" + c.key()
		rep := false
		for _, h := range n.hist {
			if h == rec {
				rep = true
			}
		}
		if !rep {
			out = append(out, m)
		}
	}
	return out
}

func (n *naive) playRecorded(m nmove) {
	c := n.copy()
	c.play(m)
	c.hist = append(c.hist, ident(m.text)+"|"+c.key())
	*n = *c
}

func (n *naive) perft(d int) uint64 {
	if d == 0 {
		return 1
	}
	ms := n.legal()
	if d == 1 {
		return uint64(len(ms))
	}
	var t uint64
	for _, m := range ms {
		c := n.copy()
		c.playRecorded(m)
		t += c.perft(d - 1)
	}
	return t
}

// tricky positions for the cross-check.
var crossPositions = []struct {
	name  string
	fen   string
	depth int
}{
	{"start", "", 4},
	{"promotions", "4k3/1P1P3P/L7/2N5/8/6n1/p2p2l1/2K5 b - 1", 5},
	{"drops with hands", "4k3/8/8/3p4/8/8/8/4K3 b SNL+Prbnl+s 1", 2},
	{"king's privilege", "8/3k4/8/2+p+r+b3/3K4/2+sp1+n2/8/8 b +PI 1", 3},
	{"handicap promoted rook and bishop", "lnsiksnl/1r4b1/pppppppp/8/8/PPPPPPPP/1+B4+R1/LNSIKSNL b - 1", 3},
}

func TestNaiveGeneratorAgrees(t *testing.T) {
	longtest.Skip(t)
	for _, tc := range crossPositions {
		t.Run(tc.name, func(t *testing.T) {
			fen := tc.fen
			if fen == "" {
				fen = StartSFEN
			}
			p, err := Parse(fen)
			if err != nil {
				t.Fatal(err)
			}
			n := naiveParse(t, fen)
			// root move sets as text
			var got, want []string
			for _, m := range p.Legal(nil) {
				got = append(got, p.FormatMove(m))
			}
			for _, m := range n.legal() {
				want = append(want, m.text)
			}
			sort.Strings(got)
			sort.Strings(want)
			if strings.Join(got, " ") != strings.Join(want, " ") {
				t.Fatalf("root moves differ:\n got %v\nwant %v", got, want)
			}
			for d := 1; d <= tc.depth; d++ {
				g, w := rules.Perft(p, d), n.perft(d)
				if g != w {
					t.Errorf("depth %d: Legal %d, naive %d", d, g, w)
				}
			}
		})
	}
}

// TestNaiveRepetition plays a shuffle that makes the repetition rule bite and
// checks both generators agree at each step, then that both refuse the repeat.
func TestNaiveRepetition(t *testing.T) {
	p, _ := Parse("")
	n := naiveParse(t, StartSFEN)
	seq := []string{"Rg2-h2", "Rb7-a7", "Rh2-g2", "Ra7-b7", "Rg2-f2", "Rb7-a7", "Rf2-g2"}
	for i, s := range seq {
		if g, w := rules.Perft(p, 3), n.perft(3); g != w {
			t.Fatalf("before %s (ply %d): perft(3) Legal %d naive %d", s, i+1, g, w)
		}
		m, err := p.ParseMove(s)
		if err != nil {
			t.Fatalf("ply %d %s: %v", i+1, s, err)
		}
		if i == 4 {
			// back at the start: Rg2-h2 would repeat ply 1.
			if _, err := p.ParseMove("Rg2-h2"); !isRule(err, RuleRepetition) {
				t.Errorf("Rg2-h2 at ply 5: got %v, want repetition", err)
			}
		}
		p.Play(m)
		found := false
		for _, nm := range n.legal() {
			if nm.text == s {
				n.playRecorded(nm)
				found = true
				break
			}
		}
		if !found {
			t.Fatalf("naive has no %s", s)
		}
	}
	// Ra7-b7 was played from this very position at ply 4: it repeats.
	for _, s := range []string{"Ra7-b7"} {
		if _, err := p.ParseMove(s); !isRule(err, RuleRepetition) {
			t.Errorf("%s: got %v, want repetition", s, err)
		}
		for _, nm := range n.legal() {
			if nm.text == s {
				t.Errorf("naive still allows %s", s)
			}
		}
	}
	if g, w := rules.Perft(p, 2), n.perft(2); g != w {
		t.Fatalf("after the shuffle: perft(2) Legal %d naive %d", g, w)
	}
}
