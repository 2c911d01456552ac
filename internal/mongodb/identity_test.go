package mongodb

import "testing"

// TestDeploymentSame: one deployment is the same whichever member or
// alias it is reached by, and a member added since still matches; another
// replica set of the same hosts' names, or another host, does not.
func TestDeploymentSame(t *testing.T) {
	captured := DeploymentOf("rs0", []string{"db1:27017", "db2:27017", "db3:27017"})
	for _, tc := range []struct {
		name string
		d    Deployment
		same bool
	}{
		{"the same set, hosts in another order", DeploymentOf("rs0", []string{"db3:27017", "db1:27017", "db2:27017"}), true},
		{"a member added, one removed", DeploymentOf("rs0", []string{"db2:27017", "db3:27017", "db4:27017"}), true},
		{"another set name on the same hosts", DeploymentOf("rs1", []string{"db1:27017"}), false},
		{"another deployment", DeploymentOf("rs0", []string{"test1:27017"}), false},
		{"a standalone", DeploymentOf("", []string{"db1:27017"}), false},
	} {
		if got := tc.d.Same(captured); got != tc.same {
			t.Errorf("%s: Same = %v, want %v", tc.name, got, tc.same)
		}
	}
	if len(captured) != 3 || len(captured[0]) != 16 {
		t.Errorf("identity %v: want three 16-hex-digit hashes", captured)
	}
}
