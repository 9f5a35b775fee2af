package main

import (
	"fmt"
	"io"
	"math/rand/v2"
	"strconv"
	"strings"
	"sync"

	"github.com/corentings/chess/v2"
)

// The length drawn for a game that no rule ends first, in plies.
const (
	MinPlies = 20
	MaxPlies = 160
)

// Pool sizes of the drawn tags.
const (
	players = 5000
	events  = 400
)

// batch is how many games the workers make between two writes, so that
// memory stays bounded and the output stays in game order.
const batch = 2048

// Write writes games 0..n-1 of seed to w, made by workers goroutines.
func Write(w io.Writer, seed uint64, n, workers int) error {
	out := make([]string, batch)
	for start := 0; start < n; start += batch {
		m := min(batch, n-start)
		var wg sync.WaitGroup
		next := make(chan int)
		for range workers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := range next {
					out[i] = Game(seed, start+i)
				}
			}()
		}
		for i := range m {
			next <- i
		}
		close(next)
		wg.Wait()
		for _, g := range out[:m] {
			if _, err := io.WriteString(w, g); err != nil {
				return err
			}
		}
	}
	return nil
}

// Game returns game i of seed as PGN text: tags, a blank line, movetext
// wrapped at 80 columns ending with the result, and a blank line.
func Game(seed uint64, i int) string {
	r := rand.New(rand.NewPCG(seed, uint64(i)))
	moves, result := play(r)
	var b strings.Builder
	white := r.IntN(players)
	black := (white + 1 + r.IntN(players-1)) % players
	ev := r.IntN(events)
	fmt.Fprintf(&b, "[Event \"Random open %d\"]\n", ev)
	fmt.Fprintf(&b, "[Site \"City %d\"]\n", ev%97)
	fmt.Fprintf(&b, "[Date \"%d.%02d.%02d\"]\n", 1990+r.IntN(36), 1+r.IntN(12), 1+r.IntN(28))
	fmt.Fprintf(&b, "[Round \"%d\"]\n", 1+r.IntN(11))
	fmt.Fprintf(&b, "[White \"Player %04d, A.\"]\n", white)
	fmt.Fprintf(&b, "[Black \"Player %04d, B.\"]\n", black)
	fmt.Fprintf(&b, "[Result \"%s\"]\n\n", result)
	writeMovetext(&b, moves, result)
	return b.String()
}

// play draws one game's moves in SAN and its result.
func play(r *rand.Rand) ([]string, string) {
	length := MinPlies + r.IntN(MaxPlies-MinPlies+1)
	pos := chess.StartingPosition()
	var san []string
	for len(san) < length {
		legal := pos.ValidMoves()
		if len(legal) == 0 {
			break
		}
		m := legal[r.IntN(len(legal))]
		san = append(san, chess.AlgebraicNotation{}.Encode(pos, &m))
		pos = pos.Update(&m)
		if m.HasTag(chess.Capture) && !sufficient(pos.Board()) {
			return san, "1/2-1/2"
		}
		if pos.HalfMoveClock() >= 100 {
			return san, "1/2-1/2"
		}
	}
	switch pos.Status() {
	case chess.Checkmate:
		if pos.Turn() == chess.White {
			return san, "0-1"
		}
		return san, "1-0"
	case chess.Stalemate:
		return san, "1/2-1/2"
	}
	return san, [...]string{"1-0", "0-1", "1/2-1/2"}[r.IntN(3)]
}

// sufficient reports whether either side could still mate: false for a
// bare king against a bare king or a king with one minor piece.
func sufficient(b *chess.Board) bool {
	minors := 0
	for _, p := range b.SquareMap() {
		switch p.Type() {
		case chess.King:
		case chess.Knight, chess.Bishop:
			minors++
		default:
			return true
		}
	}
	return minors > 1
}

// writeMovetext writes "1. e4 e5 2. ..." and the result, wrapped at 80
// columns, and a blank line.
func writeMovetext(b *strings.Builder, san []string, result string) {
	col := 0
	word := func(s string) {
		if col > 0 && col+1+len(s) > 80 {
			b.WriteByte('\n')
			col = 0
		} else if col > 0 {
			b.WriteByte(' ')
			col++
		}
		b.WriteString(s)
		col += len(s)
	}
	for i, s := range san {
		if i%2 == 0 {
			word(strconv.Itoa(i/2+1) + ".")
		}
		word(s)
	}
	word(result)
	b.WriteString("\n\n")
}
