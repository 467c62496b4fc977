package reportjson

// ChangeRowsFastForTest says whether Write writes change rows without reflection.
var ChangeRowsFastForTest = changeRowsFast
