package record_test

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/plateau/plateau/record"
)

// dumpSums holds the SHA-256 of dumpAll for every input of dumpInputs.
const dumpSums = "testdata/dump.sums"

// dumpInputs are the record's test inputs, the sample collections and the
// shared corpus (when present).
func dumpInputs(t *testing.T) []string {
	t.Helper()
	var files []string
	for _, pat := range []string{"testdata/*.pdn", "../samples/*/*.pdn", filepath.Join(corpus, "pdn/*/*.pdn")} {
		m, err := filepath.Glob(pat)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, m...)
	}
	sort.Strings(files)
	return files
}

// dumpAll writes every field of every game (and every error) that a Reader
// with the size limit max reads from data: nil and empty slices differ.
func dumpAll(data []byte, name string, max int64) []byte {
	var b bytes.Buffer
	r := record.NewReader(bytes.NewReader(data), name)
	r.SetMaxRecord(max)
	for i := 0; i < 1e6; i++ {
		g, err := r.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		var se *record.Error
		switch {
		case errors.As(err, &se):
			fmt.Fprintf(&b, "error %q at %#v large %v\n", se.Msg, se.Pos, errors.Is(err, record.ErrTooLarge))
		case err != nil:
			fmt.Fprintf(&b, "io error %v\n", err)
		}
		if g == nil {
			fmt.Fprintf(&b, "no game\n")
			if err != nil && se == nil {
				break
			}
			continue
		}
		fmt.Fprintf(&b, "game at %#v result %q tags %s intro %s\n", g.Pos, g.Result, dumpTags(g.Tags), dumpStrings(g.Intro))
		dumpLine(&b, g.Moves, "")
	}
	return b.Bytes()
}

func dumpTags(tags []record.Tag) string {
	if tags == nil {
		return "nil"
	}
	return fmt.Sprintf("%q", tags)
}

func dumpStrings(s []string) string {
	if s == nil {
		return "nil"
	}
	return fmt.Sprintf("%q", s)
}

func dumpLine(b *bytes.Buffer, l record.Line, indent string) {
	if l == nil {
		fmt.Fprintf(b, "%snil line\n", indent)
		return
	}
	fmt.Fprintf(b, "%sline of %d\n", indent, len(l))
	for _, m := range l {
		nags := "nil"
		if m.NAGs != nil {
			nags = fmt.Sprint(m.NAGs)
		}
		fmt.Fprintf(b, "%s%q nags %s before %s after %s ply %d at %#v\n", indent, m.Text, nags,
			dumpStrings(m.Before), dumpStrings(m.After), m.Ply, m.Pos)
		if m.Variations == nil {
			continue
		}
		fmt.Fprintf(b, "%s%d variations\n", indent, len(m.Variations))
		for _, v := range m.Variations {
			dumpLine(b, v, indent+"  ")
		}
	}
}

// The Reader reads every field of every record of the test inputs, the
// samples and the corpus as it did when testdata/dump.sums was written
// (go test -run TestDumpSums -update): a change of the reader's code must
// not change what it reads. Each input is read with the default size limit
// and with limits of 2 KiB and 300 bytes (records over them are skipped).
func TestDumpSums(t *testing.T) {
	got := map[string]string{}
	var names []string
	for _, path := range dumpInputs(t) {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		name := filepath.ToSlash(path)
		name = strings.TrimPrefix(name, "../../shared/")
		for _, max := range []int64{0, 2048, 300} {
			key := fmt.Sprintf("%s max=%d", name, max)
			got[key] = fmt.Sprintf("%x", sha256.Sum256(dumpAll(data, name, max)))
			names = append(names, key)
		}
	}
	if *update {
		var out bytes.Buffer
		for _, k := range names {
			fmt.Fprintf(&out, "%s %s\n", got[k], k)
		}
		if err := os.WriteFile(dumpSums, out.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	f, err := os.Open(dumpSums)
	if err != nil {
		t.Fatalf("%v (run go test -run TestDumpSums -update)", err)
	}
	defer f.Close()
	want := map[string]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		sum, key, ok := strings.Cut(sc.Text(), " ")
		if !ok {
			t.Fatalf("%s: bad line %q", dumpSums, sc.Text())
		}
		want[key] = sum
	}
	if len(want) == 0 {
		t.Fatalf("%s is empty", dumpSums)
	}
	checked := 0
	for _, k := range names {
		w, ok := want[k]
		if !ok {
			t.Errorf("%s: no sum in %s (a new input? run -update)", k, dumpSums)
			continue
		}
		checked++
		if w != got[k] {
			t.Errorf("%s: the reader reads it differently from when %s was written", k, dumpSums)
		}
	}
	for k := range want {
		if _, ok := got[k]; !ok && !strings.HasPrefix(k, "corpus/") {
			t.Errorf("%s: in %s but not read", k, dumpSums)
		}
	}
	t.Logf("%d inputs checked", checked)
}

// DumpFile is for comparing a reader's output outside the tests: with
// PLATEAU_DUMP_IN set, it writes dumpAll of that file to PLATEAU_DUMP_OUT.
func TestDumpFile(t *testing.T) {
	in, out := os.Getenv("PLATEAU_DUMP_IN"), os.Getenv("PLATEAU_DUMP_OUT")
	if in == "" || out == "" {
		t.Skip("PLATEAU_DUMP_IN and PLATEAU_DUMP_OUT not set")
	}
	data, err := os.ReadFile(in)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(out, dumpAll(data, filepath.Base(in), 0), 0o644); err != nil {
		t.Fatal(err)
	}
}
