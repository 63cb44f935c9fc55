package preprocess

import "flag"

var updateCases = flag.Bool("update-cases", false, "rewrite PARSER_CASES.md's PRE section from Rules")
