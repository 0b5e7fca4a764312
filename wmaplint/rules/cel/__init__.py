"""CEL: CRD validation rules, the Karta CRD's rules on definitions, groupByExpressions (WM6xx)."""
