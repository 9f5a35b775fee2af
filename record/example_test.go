package record_test

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/plateau/plateau/record"
)

func ExampleReader() {
	src := `[Game "ogi"] [Sente "A"] [Gote "B"]
1. P-e4 P-d5! 2. Bb2xg7+ {a comment} (2. S*d4 $2) Sf8xg7 0-1
[Game "dames"]
1. 32-28 19-23 ) *
[Game "dames"] 1.32-28 *`
	r := record.NewReader(strings.NewReader(src), "ex.pdn")
	for {
		g, err := r.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			fmt.Println("error:", err)
			continue
		}
		record.Write(os.Stdout, g)
	}
	// Output:
	// [Game "ogi"]
	// [Sente "A"]
	// [Gote "B"]
	// [Result "0-1"]
	//
	// 1. P-e4 P-d5 $1 2. Bb2xg7+ {a comment} (2. S*d4 $2) 2... Sf8xg7 0-1
	//
	// error: ex.pdn:4:16: unexpected ')' outside a variation
	// [Game "dames"]
	// [Result "*"]
	//
	// 1. 32-28 *
	//
}
