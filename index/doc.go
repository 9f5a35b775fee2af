// Package index is Plateau's database: the SQLite store of record, the Bleve
// text index, the import pipeline's writer, and every query.
package index
