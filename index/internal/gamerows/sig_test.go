package gamerows

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/plateau/plateau/index/internal/pattern"
	"github.com/plateau/plateau/replay"
	"github.com/plateau/plateau/replay/generate"
	"github.com/plateau/plateau/rules"

	_ "github.com/plateau/plateau/rules/all"
)

// corpusDir holds the PDN standard's collections (real draughts files),
// beside the repository (../shared/corpus).
const corpusDir = "../../../../shared/corpus/pdn"

// TestSignatureAsStored checks that the pattern signature written from
// the record's replay (pattern.PlaySigner) is, byte for byte, the one
// written by walking the game's stored move list as a pattern scan does
// (pattern.Signer, the reference): on the samples of every ruleset
// (variations, FEN starts, huffs, invalid records), the PDN corpus and
// generated games of every registered ruleset, with detection off and on.
// An invalid record gets no signature.
func TestSignatureAsStored(t *testing.T) {
	srcs := everySource(t)
	games := rules.Games()
	for _, detect := range []bool{false, true} {
		p := NewPreparer(Options{Replay: replay.Options{DefaultGame: "draughts", Detect: detect}})
		var ref pattern.Signer
		var c sigCounts
		signed := map[string]int{} // valid games signed from their replay, by ruleset
		for _, s := range srcs {
			for i, g := range s.recs {
				out := p.Prepare(Record{Game: g, Err: s.errs[i], File: s.file})
				c.records++
				if !out.Valid {
					if out.Sig != nil {
						t.Errorf("%s record %d: invalid, yet signature %x", s.file, i, out.Sig)
					}
					continue
				}
				rg, err := rules.Lookup(out.Game)
				if err != nil {
					t.Fatal(err)
				}
				want := ref.Sign(nil, rg, out.FEN, out.Moves, out.Final)
				if !bytes.Equal(out.Sig, want) {
					t.Errorf("%s record %d (%s, detect %v): signature\n%x\nfrom the stored moves\n%x", s.file, i, out.Game, detect, out.Sig, want)
				}
				got, shown := p.sig.Append(nil)
				if !shown {
					c.unshown++
					continue
				}
				if !bytes.Equal(got, want) {
					t.Errorf("%s record %d (%s, detect %v): signature from the replay\n%x\nfrom the stored moves\n%x", s.file, i, out.Game, detect, got, want)
				}
				c.count(out, want)
				signed[out.Game]++
			}
		}
		t.Logf("detect %v: %+v", detect, c)
		if !detect && c.unshown > 0 {
			t.Errorf("%d valid games not signed from their replay without detection", c.unshown)
		}
		if c.sigs < 1000 || c.branching < 20 || c.fen < 10 {
			t.Errorf("detect %v: %+v: want many signed games, some with variations, some from a FEN", detect, c)
		}
		for _, rg := range games {
			if signed[rg.ID()] == 0 {
				t.Errorf("detect %v: no valid %s game signed from its replay", detect, rg.ID())
			}
		}
	}
}

// sigCounts are what TestSignatureAsStored compared.
type sigCounts struct {
	records   int
	sigs      int // valid games signed from their replay, with a signature
	branching int // … with variations
	fen       int // … from a FEN
	unshown   int // valid games whose replay was not shown (detection)
}

func (c *sigCounts) count(out *Rows, sig []byte) {
	if len(sig) == 0 {
		return
	}
	c.sigs++
	if len(out.Pos) > out.Plies+1 {
		c.branching++
	}
	if out.FEN != "" {
		c.fen++
	}
}

// everySource reads the samples of every ruleset, the PDN corpus and 40
// generated games of every registered ruleset.
func everySource(t *testing.T) []readRecords {
	var srcs []readRecords
	files, _ := filepath.Glob("../../../samples/*/*.pdn")
	corpus, _ := filepath.Glob(filepath.Join(corpusDir, "*", "*.pdn"))
	for _, f := range append(files, corpus...) {
		text, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		srcs = append(srcs, readAll(t, f, text))
	}
	for _, rg := range rules.Games() {
		gen, err := generate.New(rg, 7)
		if err != nil {
			t.Fatalf("%s: %v", rg.ID(), err)
		}
		var buf bytes.Buffer
		if _, err := gen.Write(context.Background(), &buf, 40, generate.Options{Workers: 1}); err != nil {
			t.Fatal(err)
		}
		srcs = append(srcs, readAll(t, rg.ID()+".pdn", buf.Bytes()))
	}
	return srcs
}
