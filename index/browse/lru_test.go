package browse

import "testing"

func TestLRU(t *testing.T) {
	c := newLRU[int, string](2)
	c.put(1, 7, "a")
	c.put(2, 7, "b")
	if v, ok := c.get(1, 7); !ok || v != "a" { // 1 is now the most recent
		t.Fatalf("get 1: %q %v", v, ok)
	}
	c.put(3, 7, "c") // drops 2, the least recently used
	if _, ok := c.get(2, 7); ok {
		t.Error("2 kept beyond the bound")
	}
	for k, want := range map[int]string{1: "a", 3: "c"} {
		if v, ok := c.get(k, 7); !ok || v != want {
			t.Errorf("get %d: %q %v", k, v, ok)
		}
	}
	if c.len() != 2 {
		t.Errorf("%d kept", c.len())
	}
	// Another generation (the database grew): nothing is kept.
	if _, ok := c.get(1, 8); ok || c.len() != 0 {
		t.Errorf("a value of the last generation served (%d kept)", c.len())
	}
}
