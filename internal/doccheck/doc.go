// Package doccheck holds the repository's documentation checks; it has no
// code of its own, only tests.
//
// The repository explains itself: a comment, a Markdown file or a parser
// fixture's ref that cites a document names a file that exists in the
// repository, and a section it cites exists in that document. The citation
// form is the document's name followed by the section in double quotes —
// PARSER_CASES.md, "Schema-typed values" — where the section is a heading
// of the document (a trailing parenthetical may be left out) or the bold
// lead phrase of one of its paragraphs or list items (PARSER_CASES.md,
// "Limits"). A section sign (a bare section number) is not a citation a
// reader can open and is rejected, and so are references to the design
// documents the project was built from, which are not in the repository:
// their rules are written down here, in PARSER_CASES.md or a package doc.
package doccheck
