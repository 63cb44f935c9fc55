package preprocess

import "flag"

var updateCases = flag.Bool("update-cases", false, "rewrite PARSER_CASES.md's PRE and effort sections from the rule table and the effort probes")
