package writer

import (
	"slices"

	"github.com/plateau/plateau/index/internal/gamerows"
	"github.com/plateau/plateau/index/internal/playerlines"
	"github.com/plateau/plateau/index/internal/posrun"
	"github.com/plateau/plateau/index/internal/textindex"
)

// ahead is what the rows of a valid game need that its id does not
// decide: an import's replay workers make it (aheadOf), so that the
// writer, the import's one serial stage, only adds the id. An edit's
// game, which no worker prepares, has its own made by the writer.
type ahead struct {
	// occ are the game's position occurrences under their stored keys,
	// their at without the game (posrun.PackAt of game 0): an at's game
	// bits are apart from its ply's and variation's.
	occ  []posrun.Pos
	salt uint64    // the ruleset's salt: a key salted is key ^ salt (gamerows.SaltKey)
	elo  [2]string // the sides' ratings (playerlines.Elo)
	doc  textindex.Doc
}

// aheadOf is the ahead of valid game p, whose occurrences pos stores.
func aheadOf(pos *posrun.Store, p *prepared) *ahead {
	a := &ahead{salt: uint64(gamerows.SaltKey(p.Game, 0)), elo: playerlines.Elo(p.Game, p.Tags), doc: DocOf(0, p)}
	a.occ = make([]posrun.Pos, len(p.Pos))
	for i, r := range p.Pos {
		a.occ[i] = posrun.Pos{Key: storedKey(pos, int64(r.Key^a.salt), r.Ply, r.Var), At: posrun.PackAt(0, r.Ply, r.Var)}
	}
	return a
}

// appendOcc appends occurrences occ (of aheadOf) as game id's.
func appendOcc(dst, occ []posrun.Pos, id int64) []posrun.Pos {
	game := posrun.PackAt(id, 0, 0)
	dst = slices.Grow(dst, len(occ))
	for _, o := range occ {
		dst = append(dst, posrun.Pos{Key: o.Key, At: o.At | game})
	}
	return dst
}

// aheadWeight is the memory a holds, roughly (as preparedWeight).
func aheadWeight(a *ahead) int64 {
	if a == nil {
		return 0
	}
	return int64(128 + 16*cap(a.occ) + len(a.doc.Players))
}
