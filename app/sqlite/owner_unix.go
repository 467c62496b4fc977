//go:build unix

package sqlite

import (
	"errors"
	"os"
	"syscall"
)

// holdOwnerLock takes an exclusive lock on path for as long as the process
// (or until release) holds the returned file: the sign that the owner of
// the leases named after it is alive.
func holdOwnerLock(path string) (release func(), err error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return nil, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		return nil, err
	}
	return func() { os.Remove(path); f.Close() }, nil
}

// ownerGone reports whether the process that held path's lock has ended:
// the lock can be taken. A missing file tells nothing (false).
func ownerGone(path string) bool {
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		return false
	}
	defer f.Close()
	err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
	if errors.Is(err, syscall.EWOULDBLOCK) || err != nil {
		return false
	}
	os.Remove(path)
	return true
}
