package plan

import "testing"

// TestRewritesErrors checks the code generated for errors.Is, errors.As and assertions on errors.
func TestRewritesErrors(t *testing.T) {
	testRewrites(t, []rewriteCase{
		{"errors.Is and errors.As on cell errors", "var err error = &E{\"x\"}\nvar target *E\nok := errors.Is(err, err) && errors.As(err, &target)",
			[]string{"_gt.ErrorsIsWith(err, err, _gtErr) && _gt.ErrorsAs(err, func(_gte any) bool { _gtv, _gtok := _gte.(*E); if _gtok { *(&target) = _gtv }; return _gtok }, _gtErr)"}, nil},
	})
}
