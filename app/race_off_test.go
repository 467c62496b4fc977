//go:build !race

package app_test

const raceDetector = false
