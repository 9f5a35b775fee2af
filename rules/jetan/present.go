package jetan

import (
	"github.com/plateau/plateau/rules"
	"github.com/plateau/plateau/rules/draw"
)

var (
	_ draw.Drawer    = Game{}
	_ rules.Profiler = Game{}
)

// Drawing implements draw.Drawer: 10×10, files a–j left to right, ranks
// 10→1 top down (Black at the bottom), discs marked with the piece letter.
func (Game) Drawing(rules.Position) draw.Board {
	b := draw.Checkered(draw.Letters('a', size), draw.NumbersDown(size), false)
	b.Style, b.Colors = draw.Lettered, [2]string{"#222", "#f08a24"}
	b.Pieces = pieceLegend
	return b
}

// pieceLegend names the pieces (Burroughs' names, as the rules text has
// them); none promotes.
var pieceLegend = []draw.Piece{
	{Letter: "C", Name: "Chief"},
	{Letter: "P", Name: "Princess"},
	{Letter: "F", Name: "Flier"},
	{Letter: "D", Name: "Dwar"},
	{Letter: "W", Name: "Warrior"},
	{Letter: "A", Name: "Padwar"},
	{Letter: "T", Name: "Thoat"},
	{Letter: "N", Name: "Panthan"},
}

// Profile implements rules.Profiler: the Princess is the target and the
// Chief is guarded; positions have too many moves to try each of them.
func (Game) Profile() rules.Profile {
	p := rules.DefaultProfile()
	p.Target = kindLetters[princess]
	p.Chief = kindLetters[chief]
	p.Lookahead = 0
	p.Resign = 6
	p.Progress = 4
	return p
}
