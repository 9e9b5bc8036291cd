package backend

// MatrixOperand says how a GEMM reads, in place, the rows×cols matrix
// whose element (i, j) is at i*rs + j*cs from its start: ok is false when
// it cannot, and the matrix must be copied to contiguous memory first.
//
// When trans is false the memory is the matrix in row-major order with
// leading dimension ld (rows ld apart, elements of a row adjacent); when
// trans is true it is the transpose in row-major order (columns ld apart),
// which a row-major GEMM takes with its transpose flag set. Read as
// column-major, as cuBLAS reads it, the same memory is the transpose when
// trans is false and the matrix itself when true. ld is at least 1 and at
// least the length of the rows (of the transpose when trans) that it
// separates, as BLAS requires.
func MatrixOperand(rows, cols, rs, cs int) (trans bool, ld int, ok bool) {
	switch {
	case cs == 1 || cols == 1:
		ld = rs
		if rows == 1 {
			ld = max(1, cols) // one row: its stride is never used
		}
		return false, ld, ld >= max(1, cols)
	case rs == 1 || rows == 1:
		// cols > 1 here, so cs is the stride between columns.
		return true, cs, cs >= max(1, rows)
	}
	return false, 0, false
}
