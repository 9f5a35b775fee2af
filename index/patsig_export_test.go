package index

import (
	"context"
	"fmt"

	"github.com/plateau/plateau/index/internal/patsig"
)

// sigVersion1 writes a version-2 signature as version 1 (each code's and
// slot's byte before its bounds); any other as it is.
func sigVersion1(b []byte) []byte {
	if len(b) < 16 || b[0] != patsig.Version {
		return b
	}
	out := append([]byte{patsig.Version1}, b[1:15]...)
	i := 15
	for _, width := range []int{2, 1} { // codes: nibbles, regions; slots: nibbles
		n := int(b[i])
		bm := b[i+1 : i+1+n]
		i += 1 + n
		at := len(out)
		out = append(out, 0)
		for k, c := range bm {
			for bit := range 8 {
				if c>>bit&1 == 1 {
					out = append(append(out, byte(k*8+bit)), b[i:i+width]...)
					i += width
					out[at]++
				}
			}
		}
	}
	return out
}

// DowngradeToLayout22 writes every pattern signature in version 1 and
// marks the database layout 22, for the upgrade's tests.
func DowngradeToLayout22(ctx context.Context, db *DB) error {
	rows, err := db.sql.QueryContext(ctx, `SELECT block, sigs FROM pattern_sigs`)
	if err != nil {
		return err
	}
	blobs := map[int64][]byte{}
	for rows.Next() {
		var block int64
		var blob, out []byte
		if err := rows.Scan(&block, &blob); err != nil {
			rows.Close()
			return err
		}
		if !patsig.Entries(block, blob, func(id int64, sig []byte) { out = patsig.AppendEntry(out, id, sigVersion1(sig)) }) {
			rows.Close()
			return fmt.Errorf("block %d does not parse", block)
		}
		blobs[block] = out
	}
	rows.Close()
	for block, blob := range blobs {
		if _, err := db.sql.ExecContext(ctx, `UPDATE pattern_sigs SET sigs = ? WHERE block = ?`, blob, block); err != nil {
			return err
		}
	}
	return setMeta(ctx, db.sql, "schema", 22)
}
