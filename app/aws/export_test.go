package aws

import "time"

// SetClock lets tests move a Store's clock to check expiry without waiting.
func SetClock(s *Store, now func() time.Time) { s.now = now }
