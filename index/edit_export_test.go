package index

// SetAfterEditCommit sets the hook run after an edit's SQLite commit, before
// its text-index update (the kill tests die there).
func SetAfterEditCommit(f func()) { writeTuning.AfterEditCommit = f }
