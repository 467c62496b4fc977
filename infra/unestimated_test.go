package infra

import "testing"

func TestNotEstimatedTypesAreNotAdapters(t *testing.T) {
	t.Parallel()
	for typ := range hourlyUnestimated {
		if Supported(typ) {
			t.Errorf("%s is estimated by an adapter and listed as not estimated", typ)
		}
	}
	if kind, ok := NotEstimated("aws_db_instance"); !ok || kind != "database" {
		t.Errorf("NotEstimated(aws_db_instance) = %q, %v", kind, ok)
	}
	if _, ok := NotEstimated("aws_s3_bucket"); ok {
		t.Error("aws_s3_bucket does not bill by the hour")
	}
}
