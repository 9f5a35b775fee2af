package store

/*
#include <stdint.h>
#include <string.h>

// The few SQLite functions used here, declared as sqlite3.h declares
// them: the SQLite that github.com/mattn/go-sqlite3 compiles in defines
// them, and this package links against it.
typedef struct sqlite3 sqlite3;
typedef struct sqlite3_stmt sqlite3_stmt;
extern int sqlite3_reset(sqlite3_stmt*);
extern int sqlite3_clear_bindings(sqlite3_stmt*);
extern int sqlite3_bind_null(sqlite3_stmt*, int);
extern int sqlite3_bind_int64(sqlite3_stmt*, int, long long);
extern int sqlite3_bind_double(sqlite3_stmt*, int, double);
extern int sqlite3_bind_text64(sqlite3_stmt*, int, const char*, unsigned long long, void(*)(void*), unsigned char);
extern int sqlite3_bind_blob64(sqlite3_stmt*, int, const void*, unsigned long long, void(*)(void*));
extern int sqlite3_step(sqlite3_stmt*);
extern sqlite3 *sqlite3_db_handle(sqlite3_stmt*);
extern long long sqlite3_last_insert_rowid(sqlite3*);
extern long long sqlite3_changes64(sqlite3*);
extern int sqlite3_errcode(sqlite3*);
extern int sqlite3_extended_errcode(sqlite3*);
extern const char *sqlite3_errmsg(sqlite3*);
extern int sqlite3_get_autocommit(sqlite3*);
extern int sqlite3_finalize(sqlite3_stmt*);

enum { kindNull, kindInt, kindFloat, kindText, kindBlob };

// plateau_exec binds the n values of kinds and vals (a text's or a
// blob's length in vals, its bytes in turn in data) to s, runs it once,
// and resets it and clears its values: s is left as prepared, and SQLite
// keeps no pointer to data, which it reads in place (SQLITE_STATIC). It
// returns SQLite's result code (0: done) and, on an error, leaves the
// error's code and message in *code, *ext and msg; -1, without running
// s, when no transaction is open on s's connection.
static int plateau_exec(sqlite3_stmt *s, int n, const unsigned char *kinds, const int64_t *vals, const char *data,
		long long *rowid, long long *changes, int *code, int *ext, char *msg, int msglen) {
	static const char empty[1] = {0};
	sqlite3 *db = sqlite3_db_handle(s);
	int rc = 0;
	size_t off = 0;
	if (sqlite3_get_autocommit(db)) {
		return -1;
	}
	for (int i = 0; i < n && rc == 0; i++) {
		switch (kinds[i]) {
		case kindNull:
			rc = sqlite3_bind_null(s, i + 1);
			break;
		case kindInt:
			rc = sqlite3_bind_int64(s, i + 1, vals[i]);
			break;
		case kindFloat: {
			double d;
			memcpy(&d, &vals[i], sizeof d);
			rc = sqlite3_bind_double(s, i + 1, d);
			break;
		}
		case kindText:
			rc = sqlite3_bind_text64(s, i + 1, vals[i] ? data + off : empty, (unsigned long long)vals[i], (void(*)(void*))0, 1);
			off += (size_t)vals[i];
			break;
		default:
			rc = sqlite3_bind_blob64(s, i + 1, vals[i] ? data + off : empty, (unsigned long long)vals[i], (void(*)(void*))0);
			off += (size_t)vals[i];
			break;
		}
	}
	if (rc == 0) {
		rc = sqlite3_step(s);
		if (rc == 100 || rc == 101) { // SQLITE_ROW, SQLITE_DONE
			rc = 0;
		}
		*rowid = sqlite3_last_insert_rowid(db);
		*changes = sqlite3_changes64(db);
	}
	if (rc != 0) {
		*code = sqlite3_errcode(db);
		*ext = sqlite3_extended_errcode(db);
		strncpy(msg, sqlite3_errmsg(db), msglen - 1);
		msg[msglen - 1] = 0;
	}
	sqlite3_reset(s);
	sqlite3_clear_bindings(s);
	return rc;
}
*/
import "C"

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"math"
	"reflect"
	"runtime"
	"slices"
	"unsafe"

	"github.com/mattn/go-sqlite3"
)

// A RawStmt is a statement that returns no rows, prepared on a
// connection's SQLite handle and run in one call into SQLite: its values
// bound, the statement stepped and reset. database/sql and the driver
// convert every value, then make a call into C for each (the writer
// binds tens of values a game); a RawStmt packs the values in Go and
// crosses into C once a statement.
//
// It runs on the connection's driver connection (sql.Conn.Raw), in the
// transaction open on that connection and only in one (ErrNoTx):
// database/sql rolls back a transaction whose context is done, under
// its caller's statements, which must not then write on their own. It
// binds the values as the driver does (an int or a bool as an integer,
// a nil []byte as NULL, an empty text or blob as itself), and fails with
// the driver's error type (sqlite3.Error, with SQLite's message).
//
// The statement handle is read from the driver's statement, a field the
// driver does not export (stmtHandle); a test checks that it is found.
type RawStmt struct {
	conn   *sql.Conn
	ds     driver.Stmt
	handle *C.sqlite3_stmt
	n      int // parameters
	query  string
	v      Values // ExecContext's, packed
}

// Values are the values of one run of a statement, packed as a RawStmt
// binds them (ExecValues), so that a goroutine packs them while another
// runs the statements: a kind and a value each, the bytes of the texts
// and blobs in turn. The zero Values is empty.
type Values struct {
	kinds []byte
	vals  []int64
	data  []byte
}

// Reset empties v, its memory kept.
func (v *Values) Reset() { v.kinds, v.vals, v.data = v.kinds[:0], v.vals[:0], v.data[:0] }

// Grow makes room for n more values and data more bytes of texts and
// blobs.
func (v *Values) Grow(n, data int) {
	v.kinds = slices.Grow(v.kinds, n)
	v.vals = slices.Grow(v.vals, n)
	v.data = slices.Grow(v.data, data)
}

// Len is the number of values.
func (v *Values) Len() int { return len(v.kinds) }

// Int adds an integer.
func (v *Values) Int(i int64) { v.put(C.kindInt, i) }

// Float adds a float.
func (v *Values) Float(f float64) { v.put(C.kindFloat, int64(math.Float64bits(f))) }

// Text adds a text.
func (v *Values) Text(t string) {
	v.put(C.kindText, int64(len(t)))
	v.data = append(v.data, t...)
}

// Blob adds a blob; a nil one is NULL, as the driver binds it.
func (v *Values) Blob(b []byte) {
	if b == nil {
		v.put(C.kindNull, 0)
		return
	}
	v.put(C.kindBlob, int64(len(b)))
	v.data = append(v.data, b...)
}

// Args are the values as database/sql takes them, for a statement that is
// no RawStmt.
func (v *Values) Args() []any {
	args := make([]any, len(v.kinds))
	off := int64(0)
	for i, k := range v.kinds {
		switch k {
		case C.kindInt:
			args[i] = v.vals[i]
		case C.kindFloat:
			args[i] = math.Float64frombits(uint64(v.vals[i]))
		case C.kindText:
			args[i] = string(v.data[off : off+v.vals[i]])
			off += v.vals[i]
		case C.kindBlob:
			args[i] = v.data[off : off+v.vals[i] : off+v.vals[i]]
			off += v.vals[i]
		}
	}
	return args
}

func (v *Values) put(kind C.int, x int64) {
	v.kinds = append(v.kinds, byte(kind))
	v.vals = append(v.vals, x)
}

// PrepareRaw prepares query on conn's SQLite connection.
func PrepareRaw(ctx context.Context, conn *sql.Conn, query string) (*RawStmt, error) {
	s := &RawStmt{conn: conn, query: query}
	err := conn.Raw(func(dc any) error {
		sc, ok := dc.(*sqlite3.SQLiteConn)
		if !ok {
			return fmt.Errorf("raw statement: the connection is a %T, not SQLite's", dc)
		}
		ds, err := sc.PrepareContext(ctx, query)
		if err != nil {
			return err
		}
		h, err := stmtHandle(ds)
		if err != nil {
			ds.Close()
			return err
		}
		s.ds, s.handle, s.n = ds, h, ds.NumInput()
		return nil
	})
	if err != nil {
		return nil, err
	}
	return s, nil
}

// ErrNoTx: a RawStmt was run with no transaction open on its
// connection.
var ErrNoTx = errors.New("raw statement: no transaction open")

// errNoHandle: the driver's statement has no statement handle where
// stmtHandle looks for it (the driver changed).
var errNoHandle = errors.New("raw statement: go-sqlite3's statement handle not found")

// stmtHandle is the SQLite statement handle of a statement of
// go-sqlite3: its field s, a *C.sqlite3_stmt of that package.
func stmtHandle(ds any) (*C.sqlite3_stmt, error) {
	v := reflect.ValueOf(ds)
	if v.Kind() != reflect.Pointer || v.Elem().Kind() != reflect.Struct {
		return nil, errNoHandle
	}
	f := v.Elem().FieldByName("s")
	if !f.IsValid() || f.Kind() != reflect.Pointer || f.Type().Elem().Name() != "_Ctype_struct_sqlite3_stmt" || f.IsNil() {
		return nil, errNoHandle
	}
	return (*C.sqlite3_stmt)(f.UnsafePointer()), nil
}

// ExecContext runs the statement once with args, as sql.Stmt.ExecContext
// does; ctx is checked before it runs, not during.
func (s *RawStmt) ExecContext(ctx context.Context, args ...any) (sql.Result, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if len(args) != s.n {
		return nil, fmt.Errorf("sql: expected %d arguments, got %d", s.n, len(args))
	}
	if err := s.pack(args); err != nil {
		return nil, err
	}
	return s.exec(&s.v)
}

// ExecValues runs the statement once with the values v, as ExecContext
// does with their arguments.
func (s *RawStmt) ExecValues(ctx context.Context, v *Values) (sql.Result, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if v.Len() != s.n {
		return nil, fmt.Errorf("sql: expected %d arguments, got %d", s.n, v.Len())
	}
	return s.exec(v)
}

// exec runs the statement once with v.
func (s *RawStmt) exec(v *Values) (sql.Result, error) {
	var res rawResult
	var code, ext C.int
	var msg [256]C.char
	var rc C.int
	err := s.conn.Raw(func(any) error {
		if s.handle == nil {
			return errors.New("raw statement: closed")
		}
		var kinds *C.uchar
		var vals *C.int64_t
		var data *C.char
		if len(v.kinds) > 0 {
			kinds, vals = (*C.uchar)(unsafe.SliceData(v.kinds)), (*C.int64_t)(unsafe.SliceData(v.vals))
		}
		if len(v.data) > 0 {
			data = (*C.char)(unsafe.Pointer(unsafe.SliceData(v.data)))
		}
		rc = C.plateau_exec(s.handle, C.int(len(v.kinds)), kinds, vals, data,
			(*C.longlong)(&res.id), (*C.longlong)(&res.changes), &code, &ext, &msg[0], C.int(len(msg)))
		return nil
	})
	if err != nil {
		return nil, err
	}
	if rc == -1 {
		return nil, ErrNoTx
	}
	if rc != 0 {
		return nil, RawError{Msg: C.GoString(&msg[0]), Err: sqlite3.Error{Code: sqlite3.ErrNo(code), ExtendedCode: sqlite3.ErrNoExtended(ext)}}
	}
	return res, nil
}

// pack lays args out for plateau_exec: a kind and a value each, the
// bytes of the texts and blobs in turn.
func (s *RawStmt) pack(args []any) error {
	s.v.Reset()
	for i, a := range args {
		if err := s.v.add(a); err != nil {
			return fmt.Errorf("sql: converting argument $%d type: %w", i+1, err)
		}
	}
	return nil
}

// add adds a value of ExecContext's arguments.
func (vs *Values) add(a any) error {
	switch v := a.(type) {
	case nil:
		vs.put(C.kindNull, 0)
	case int64:
		vs.Int(v)
	case int:
		vs.Int(int64(v))
	case int32:
		vs.Int(int64(v))
	case bool:
		b := int64(0)
		if v {
			b = 1
		}
		vs.Int(b)
	case float64:
		vs.Float(v)
	case string:
		vs.Text(v)
	case []byte:
		vs.Blob(v)
	default:
		// What database/sql converts (other integer and float kinds,
		// driver.Valuer): converted as it converts them.
		c, err := driver.DefaultParameterConverter.ConvertValue(a)
		if err != nil {
			return err
		}
		switch c.(type) {
		case nil, int64, float64, bool, string, []byte:
			return vs.add(c)
		}
		return fmt.Errorf("unsupported type %T", a)
	}
	return nil
}

// Close finalizes the statement. The driver's statement is not closed
// but dropped: the driver finalizes the statements of an open connection
// only, and database/sql closes the connection under a transaction whose
// context is done, after which SQLite would keep the connection (its
// page cache) until the statement is finalized.
func (s *RawStmt) Close() error {
	if s.handle == nil {
		return nil
	}
	h := s.handle
	runtime.SetFinalizer(s.ds, nil) // the driver's Close would finalize h again
	s.handle, s.ds = nil, nil
	// Under the connection's lock while database/sql has it; SQLite's
	// own otherwise.
	if err := s.conn.Raw(func(any) error { C.sqlite3_finalize(h); return nil }); err != nil {
		C.sqlite3_finalize(h)
	}
	return nil
}

// rawResult is what a RawStmt's run reports.
type rawResult struct{ id, changes int64 }

func (r rawResult) LastInsertId() (int64, error) { return r.id, nil }
func (r rawResult) RowsAffected() (int64, error) { return r.changes, nil }

// RawError is an error of a RawStmt's run: SQLite's message, and its
// codes as the driver reports them (errors.As finds the sqlite3.Error).
type RawError struct {
	Msg string
	Err sqlite3.Error
}

func (e RawError) Error() string { return e.Msg }
func (e RawError) Unwrap() error { return e.Err }
