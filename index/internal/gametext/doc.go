// Package gametext reads the games' canonical record texts, which the
// writer stores zstd-compressed in blocks of about store.BlockSize (the
// texts table; a game's row names its block, offset and length).
//
// Three readers, for three ways of asking:
//
//   - Read and Cache.Block: a game's whole text, through a cache of the
//     last block decoded, for a caller that reads games in id order (an
//     export, the text index, a pattern scan, an edit) and so reads each
//     block once.
//   - Blocks.Headers: the named tags of a page of games, through a small
//     LRU of decoded blocks shared by a database handle: a list page's
//     games are neighbours that share blocks, and readers of the first
//     pages of a list share them too.
//   - Blocks.WithText: one game, for a server asked for games one by one:
//     from the LRU when its block is there (a reader opens the games of
//     the page he sees), else its block is decoded only up to the game's
//     end, with a streaming decoder and a buffer kept for the next call.
//
// Decisions: a block never changes once written, so a cached block stays
// right for the life of a handle; the LRU is bounded by a count of blocks
// (maxBlocks); a game missing from the games table is ErrNoGame, and a
// row that points outside its block is an error naming the game, never a
// short text.
package gametext
