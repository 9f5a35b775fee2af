package longtest

import "testing"

func TestSkipFollowsEnv(t *testing.T) {
	for _, tc := range []struct {
		val     string
		skipped bool
	}{{"", true}, {"0", true}, {"yes", true}, {"1", false}} {
		t.Run("PLATEAU_LONG="+tc.val, func(t *testing.T) {
			t.Setenv(Env, tc.val)
			ran := false
			ok := t.Run("gated", func(t *testing.T) {
				Skip(t)
				ran = true
			})
			if !ok {
				t.Fatal("gated test failed")
			}
			if ran == tc.skipped {
				t.Errorf("ran=%v, want skipped=%v", ran, tc.skipped)
			}
		})
	}
}
