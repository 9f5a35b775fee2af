// Package all registers every game Plateau plays; import it for its side
// effect.
package all
